import {
  buildComponents,
  chooseTemplate,
  templateSlots,
  templateVariableProblems,
  type TemplateDefinition,
} from '../../../shared/calls/whatsapp-templates';
import { TEMPLATES } from '../../helpers/provider-wire';

const reminder = TEMPLATES[0];

describe('WhatsApp template slots, checks and components', () => {
  it('finds header, body and button slots in sending order', () => {
    expect(templateSlots(reminder).map((s) => [s.key, s.required])).toEqual([
      ['header_1', true],
      ['body_1', true],
      ['body_2', true],
      ['body_3', true],
      ['button_Call me later', false],
      ['button_Reschedule', true],
    ]);
  });

  it('builds header, body and button components with button indexes from the definition', () => {
    const variables = {
      header_1: 'Ada',
      body_1: 'Ada',
      body_2: 'Grace',
      body_3: 'Acme',
      button_Reschedule: 'tok123',
      'button_Call me later': 'later-c1',
    };
    expect(buildComponents(reminder, variables)).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: 'Ada' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ada' },
          { type: 'text', text: 'Grace' },
          { type: 'text', text: 'Acme' },
        ],
      },
      { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'later-c1' }] },
      { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'tok123' }] },
    ]);
  });

  it('orders positional parameters by number, not by where they appear, and names named parameters', () => {
    const def: TemplateDefinition = {
      name: 't',
      language: 'en',
      status: 'APPROVED',
      components: [{ type: 'BODY', text: '{{2}} then {{1}} and {{2}} again' }],
    };
    expect(buildComponents(def, { body_1: 'one', body_2: 'two' })).toEqual([
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
    ]);
    const named: TemplateDefinition = {
      name: 'n',
      language: 'en',
      status: 'APPROVED',
      parameter_format: 'NAMED',
      components: [{ type: 'BODY', text: 'Hi {{first_name}}' }],
    };
    expect(buildComponents(named, { body_first_name: 'Ada' })).toEqual([
      { type: 'body', parameters: [{ type: 'text', parameter_name: 'first_name', text: 'Ada' }] },
    ]);
  });

  it('fills media headers with a link and copy-code buttons with a coupon code', () => {
    const def: TemplateDefinition = {
      name: 'm',
      language: 'en',
      status: 'APPROVED',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'PHONE_NUMBER', text: 'Call us' },
            { type: 'COPY_CODE', text: 'Copy code' },
          ],
        },
      ],
    };
    expect(buildComponents(def, { header_1: 'https://cdn.test/logo.png', 'button_Copy code': 'ACME10' })).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.test/logo.png' } }] },
      { type: 'button', sub_type: 'copy_code', index: '1', parameters: [{ type: 'coupon_code', coupon_code: 'ACME10' }] },
    ]);
  });

  it('names missing and unknown slots', () => {
    expect(templateVariableProblems(reminder, ['header_1', 'body_1', 'body_2', 'body_3', 'button_Reschedule'])).toEqual([]);
    expect(templateVariableProblems(reminder, ['body_1', 'body_4', 'button_Book'])).toEqual([
      'needs "header_1", "body_2", "body_3", "button_Reschedule"',
      'has no slot "body_4", "button_Book" (its slots: "header_1", "body_1", "body_2", "body_3", "button_Call me later", "button_Reschedule")',
    ]);
    expect(
      templateVariableProblems({ name: 'x', language: 'en', status: 'APPROVED', components: [{ type: 'BODY', text: 'Hi' }] }, ['body_1']),
    ).toEqual(['has no slot "body_1" (its slots: none)']);
  });

  it("chooses the approved definition in the call's language, else the first approved one", () => {
    expect(chooseTemplate(TEMPLATES, 'interview_reminder', 'es-MX')).toEqual({ template: TEMPLATES[1] });
    expect(chooseTemplate(TEMPLATES, 'interview_reminder', 'en-US')).toEqual({ template: TEMPLATES[0] });
    expect(chooseTemplate(TEMPLATES, 'interview_reminder', 'de')).toEqual({ template: TEMPLATES[0] });
    expect(chooseTemplate(TEMPLATES, 'interview_reminder', null)).toEqual({ template: TEMPLATES[0] });
    expect(chooseTemplate(TEMPLATES, 'pending_template')).toEqual({ problem: 'is not approved (status PENDING)' });
    expect(chooseTemplate(TEMPLATES, 'nope')).toEqual({ problem: 'does not exist in the WhatsApp Business account' });
  });
});
