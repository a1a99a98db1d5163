import { whatsAppNumberForms } from '../../infra/people';

/** The forms of one mobile that WhatsApp's wa_id and an ATS's E.164 may differ by (infra/people.ts). */
describe('whatsAppNumberForms', () => {
  it.each([
    ['Mexico, as WhatsApp writes it', '+5215512345678', ['+5215512345678', '+525512345678']],
    ['Mexico, as E.164 writes it', '+525512345678', ['+525512345678', '+5215512345678']],
    ['Argentina, with the mobile 9', '+5491123456789', ['+5491123456789', '+541123456789']],
    ['Argentina, without it', '+541123456789', ['+541123456789', '+5491123456789']],
    ['Brazil, with the ninth digit', '+5511987654321', ['+5511987654321', '+551187654321']],
    ['Brazil, an older account without it', '+551187654321', ['+551187654321', '+5511987654321']],
    ['the United States, one form', '+14155550100', ['+14155550100']],
    ['the United Kingdom, one form', '+447700900123', ['+447700900123']],
  ])('%s', (_name, phone, forms) => {
    expect(whatsAppNumberForms(phone)).toEqual(forms);
  });
});
