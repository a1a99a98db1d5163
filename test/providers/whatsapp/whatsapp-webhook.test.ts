import { statusUpdatesIn } from '../../../providers/whatsapp/webhook';

const webhook = (value: unknown, field = 'messages') => ({
  object: 'whatsapp_business_account',
  entry: [{ id: '102290129340398', changes: [{ field, value }] }],
});

describe('WhatsApp webhook bodies, read through their schema', () => {
  it('reads the statuses of a messages change, with their errors, and ignores what else Meta sends', () => {
    const body = webhook({
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
      statuses: [
        { id: 'wamid.A', status: 'delivered', timestamp: '1750263773', recipient_id: '16505551234', pricing: { billable: true } },
        { id: 'wamid.B', status: 'failed', timestamp: '1750263774', errors: [{ code: 131026, title: 'Message undeliverable' }] },
      ],
      contacts: [{ wa_id: '16505551234' }],
    });
    expect(statusUpdatesIn(body)).toEqual({
      updates: [
        expect.objectContaining({ id: 'wamid.A', status: 'delivered' }),
        expect.objectContaining({ id: 'wamid.B', status: 'failed', errors: [{ code: 131026, title: 'Message undeliverable' }] }),
      ],
      ignored: 0,
    });
  });

  it('counts statuses it does not track or cannot read as ignored', () => {
    const body = webhook({
      statuses: [{ id: 'wamid.C', status: 'deleted' }, { status: 'read' }, 'read', { id: 'wamid.D', status: 'read' }],
    });
    expect(statusUpdatesIn(body)).toEqual({ updates: [{ id: 'wamid.D', status: 'read' }], ignored: 3 });
  });

  it.each([
    ['an inbound message', webhook({ messages: [{ from: '16505551234', id: 'wamid.E', type: 'text', text: { body: 'hi' } }] })],
    ['another field', webhook({ statuses: [{ id: 'wamid.F', status: 'read' }] }, 'account_update')],
    ['a body without entries', { object: 'whatsapp_business_account' }],
    ['entries of another shape', { entry: [{ changes: 'messages' }] }],
    ['no object at all', 'statuses'],
    ['null', null],
  ])('finds nothing in %s', (_name, body) => {
    expect(statusUpdatesIn(body)).toEqual({ updates: [], ignored: 0 });
  });
});
