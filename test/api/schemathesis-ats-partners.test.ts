import { schemathesisGroup } from '../helpers/schemathesis';

/** schemathesis over the keys a workspace gives its ATS partners, and the Ashby key it reports with (test/helpers/schemathesis.ts). */
schemathesisGroup('ats-partners');
