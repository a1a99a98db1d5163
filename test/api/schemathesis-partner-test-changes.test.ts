import { schemathesisGroup } from '../helpers/schemathesis';

/** schemathesis over a change of a workspace's test for its ATS partners (test/helpers/schemathesis.ts). */
schemathesisGroup('partner-test-changes');
