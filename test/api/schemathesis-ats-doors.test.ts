import { schemathesisGroup } from '../helpers/schemathesis';

/** schemathesis over Greenhouse's and Ashby's doors, each with a key of the workspace's for its ATS (test/helpers/schemathesis.ts). */
schemathesisGroup('ats-doors');
