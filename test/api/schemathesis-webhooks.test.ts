import { schemathesisGroup } from '../helpers/schemathesis';

/** schemathesis over the operations of webhooks, the providers' callbacks, the reference and health (test/helpers/schemathesis.ts). */
schemathesisGroup('webhooks');
