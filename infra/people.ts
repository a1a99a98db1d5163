import { createHmac } from 'node:crypto';

/**
 * A person, as the suppression list, the person index and an erasure know them: the ATS's candidate id, an
 * email and a phone, each written one way (normalised here, and nowhere else), and named in storage by a
 * keyed hash of the workspace, the kind and the value. A hash keyed with a secret the processes share can be
 * neither read back nor tried against a list of numbers without that secret, and it is one exact `_id`, the
 * one lookup FerretDB answers from an index.
 */
export interface Person {
  candidateId?: string | null;
  email?: string | null;
  phone?: string | null;
}

export type PersonKeyKind = 'candidate' | 'email' | 'phone';

/** An email is one address whatever its case and the spaces around it. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A phone is E.164 (the requests' formats check it), kept as written but for stray spaces around it. */
export function normalisePhone(phone: string): string {
  return phone.trim();
}

/**
 * The E.164 forms one mobile may be written in, the given one first. WhatsApp names a sender by its `wa_id`,
 * which for some countries differs from the E.164 an ATS stores: Mexico's mobiles carry the old mobile prefix
 * 1 (wa_id 521 + ten digits, E.164 +52 + ten), Argentina's the mobile 9 (549 + ten, often stored +54 + ten), and
 * Brazil's older accounts lack the ninth digit (55 + area + eight, E.164 55 + area + 9 + eight).
 */
export function whatsAppNumberForms(phone: string): string[] {
  const p = normalisePhone(phone);
  const digits = p.replace(/^\+/, '');
  const forms = [p];
  const swap = (from: RegExp, to: string) => from.test(digits) && forms.push(`+${digits.replace(from, to)}`);
  swap(/^521(\d{10})$/, '52$1');
  swap(/^52(\d{10})$/, '521$1');
  swap(/^549(\d{10})$/, '54$1');
  swap(/^54([1-8]\d{9})$/, '549$1');
  swap(/^55(\d{2})9(\d{8})$/, '55$1$2');
  swap(/^55(\d{2})([6-9]\d{7})$/, '55$19$2');
  return forms;
}

/** The value an identifier of the person is keyed by, normalised. */
function valueOf(person: Person, kind: PersonKeyKind): string | null {
  if (kind === 'candidate') return person.candidateId || null;
  if (kind === 'email') return person.email ? normaliseEmail(person.email) : null;
  return person.phone ? normalisePhone(person.phone) : null;
}

/**
 * The keyed hashes of the person's identifiers in the workspace, in the order of `kinds`, for those the person
 * has: `<prefix>_` and 128 bits of HMAC-SHA256 of the workspace, the kind and the value. Each use has its own
 * prefix and secret (`sk_` the suppression list, `pi_` the person index), so one never finds the other's.
 */
export function personKeys(secret: Buffer, prefix: string, workspaceId: string, person: Person, kinds: readonly PersonKeyKind[]): string[] {
  return kinds.flatMap((kind) => {
    const value = valueOf(person, kind);
    if (value === null) return [];
    return [`${prefix}_${createHmac('sha256', secret).update(`${workspaceId}\n${kind}\n${value}`).digest('hex').slice(0, 32)}`];
  });
}
