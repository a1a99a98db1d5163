import { schemathesisGroup } from '../helpers/schemathesis';

/** schemathesis over the operations of interviews (test/helpers/schemathesis.ts). */
schemathesisGroup('interviews');
