import { schemathesisGroup } from '../helpers/schemathesis';

/** schemathesis over the operations of the workspace, projects, suppressions and erasure (test/helpers/schemathesis.ts). */
schemathesisGroup('workspace');
