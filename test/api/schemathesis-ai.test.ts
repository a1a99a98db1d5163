import { schemathesisGroup } from '../helpers/schemathesis';

/** schemathesis over the operations of the AI (test/helpers/schemathesis.ts). */
schemathesisGroup('ai');
