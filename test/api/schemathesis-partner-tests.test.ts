import { schemathesisGroup } from '../helpers/schemathesis';

/** schemathesis over the workspace's tests for its ATS partners (test/helpers/schemathesis.ts). */
schemathesisGroup('partner-tests');
