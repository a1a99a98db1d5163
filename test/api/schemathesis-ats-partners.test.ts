import { schemathesisGroup } from '../helpers/schemathesis';

/** schemathesis over the operations a workspace sets its ATS partners up with: keys, tests, the Ashby key (test/helpers/schemathesis.ts). */
schemathesisGroup('ats-partners');
