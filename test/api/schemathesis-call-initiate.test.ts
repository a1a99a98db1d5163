import { schemathesisGroup } from '../helpers/schemathesis';

/** schemathesis over call/initiate (test/helpers/schemathesis.ts). */
schemathesisGroup('call-initiate');
