import { schemathesisGroup } from '../helpers/schemathesis';

/** schemathesis over the operations of calls but call/initiate (test/helpers/schemathesis.ts). */
schemathesisGroup('calls');
