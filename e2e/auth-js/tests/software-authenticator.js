// A software WebAuthn authenticator and browser in one, for driving the
// passkey and WebAuthn-factor calls of the official client from Node (which
// has no navigator.credentials): ES256 keys from node:crypto, "none"
// attestation, discoverable credentials that keep the user's handle, a sign
// counter, and knobs for bad input. It answers with the JSON auth-js's
// serializeCredentialCreationResponse / serializeCredentialRequestResponse
// send. Written after WebAuthn Level 3 §6.1 (authenticator data) and §6.5
// (attestation), RFC 8949 (CBOR) and RFC 9053 (COSE keys).

import { createHash, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';

const b64url = (bytes) => Buffer.from(bytes).toString('base64url');
const unb64url = (text) => Buffer.from(text, 'base64url');

/** The CBOR this needs: integers, byte and text strings, maps (definite lengths). */
export function cbor(value) {
  const head = (major, n) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const out = Buffer.alloc(5);
    out[0] = (major << 5) | 26;
    out.writeUInt32BE(n, 1);
    return out;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (value instanceof Map) {
    const parts = [head(5, value.size)];
    for (const [key, item] of value) parts.push(cbor(key), cbor(item));
    return Buffer.concat(parts);
  }
  throw new Error(`cannot encode ${typeof value}`);
}

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftwareAuthenticator {
  /** @param {{ rpId: string, origin: string }} options */
  constructor({ rpId, origin }) {
    this.rpId = rpId;
    this.origin = origin;
    /** Break the next signatures (a forged assertion). */
    this.tamper = false;
    /** @type {{ id: Buffer, privateKey: import('node:crypto').KeyObject, publicJwk: any, userHandle: Buffer, counter: number }[]} */
    this.credentials = [];
  }

  clientData(type, challenge) {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  rpIdHash() {
    return createHash('sha256').update(this.rpId).digest();
  }

  /** navigator.credentials.create() with the server's creation options (JSON, base64url). */
  create(options) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.credentials.push({
      id: randomBytes(16),
      privateKey,
      publicJwk: publicKey.export({ format: 'jwk' }),
      userHandle: unb64url(options.user.id),
      counter: 0,
    });
    return this.attest(this.credentials.length - 1, options);
  }

  /** A registration answer for a credential already held (what excludeCredentials would stop). */
  attest(index, options) {
    const credential = this.credentials[index];
    const coseKey = cbor(
      new Map([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, unb64url(credential.publicJwk.x)],
        [-3, unb64url(credential.publicJwk.y)],
      ]),
    );
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      this.rpIdHash(),
      Buffer.from([UP | UV | AT]),
      counter,
      Buffer.alloc(16), // AAGUID: none
      idLength,
      credential.id,
      coseKey,
    ]);
    const attestationObject = cbor(
      new Map([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(): the newest allowed credential (any, for a discoverable sign-in). */
  get(options) {
    const allowed = (options.allowCredentials ?? []).map((c) => c.id);
    let index = -1;
    this.credentials.forEach((c, i) => {
      if (allowed.length === 0 || allowed.includes(b64url(c.id))) index = i;
    });
    if (index < 0) throw new Error('the authenticator holds no allowed credential');
    return this.assertWith(index, options);
  }

  assertWith(index, options) {
    const credential = this.credentials[index];
    credential.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([this.rpIdHash(), Buffer.from([UP | UV]), counter]);
    const clientData = this.clientData('webauthn.get', options.challenge);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientData).digest()]);
    if (this.tamper) signed[0] ^= 1;
    // DER-encoded ECDSA over SHA-256, as WebAuthn's ES256 wants.
    const signature = createSign('SHA256').update(signed).sign(credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: b64url(credential.userHandle),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
