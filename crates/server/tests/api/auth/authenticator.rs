//! A software WebAuthn authenticator and client in one, for the passkey and
//! WebAuthn-factor tests: ES256 keys, "none" attestation, discoverable
//! credentials that keep the user's handle, a signature counter, and knobs
//! for bad input (another origin or relying party, a broken signature). It
//! answers with the JSON a browser's `PublicKeyCredential.toJSON()` (and
//! auth-js's serialisers) send. Independent of the server's library: the
//! bytes are put together here by hand, after WebAuthn Level 3 §6.1 and
//! §6.5 and RFC 8949 (CBOR) and RFC 9053 (COSE keys).

use data_encoding::BASE64URL_NOPAD;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// One credential the authenticator holds.
pub struct Credential {
    pub id: Vec<u8>,
    key: SigningKey,
    user_handle: Vec<u8>,
    /// The signature counter (a test may wind it back: a cloned key).
    pub counter: u32,
}

pub struct Authenticator {
    /// The relying party the authenticator scopes credentials to (the
    /// browser takes it from the options; a test may lie).
    pub rp_id: String,
    /// The page's origin, as the browser puts it in the client data.
    pub origin: String,
    /// Break the next signatures (a forged assertion).
    pub tamper: bool,
    pub credentials: Vec<Credential>,
}

fn b64(bytes: &[u8]) -> String {
    BASE64URL_NOPAD.encode(bytes)
}

fn unb64(text: &str) -> Vec<u8> {
    BASE64URL_NOPAD
        .decode(text.trim_end_matches('=').as_bytes())
        .unwrap_or_else(|err| panic!("{text:?} is not base64url: {err}"))
}

/// The smallest CBOR writer the attestation object and a COSE key need.
mod cbor {
    pub enum Item<'a> {
        Int(i64),
        Bytes(&'a [u8]),
        Text(&'a str),
        Map(Vec<(Item<'a>, Item<'a>)>),
    }

    fn head(out: &mut Vec<u8>, major: u8, value: u64) {
        let major = major << 5;
        match value {
            0..=23 => out.push(major | value as u8),
            24..=0xff => out.extend([major | 24, value as u8]),
            0x100..=0xffff => {
                out.push(major | 25);
                out.extend((value as u16).to_be_bytes());
            }
            _ => {
                out.push(major | 26);
                out.extend((value as u32).to_be_bytes());
            }
        }
    }

    pub fn write(out: &mut Vec<u8>, item: &Item) {
        match item {
            Item::Int(n) if *n >= 0 => head(out, 0, *n as u64),
            Item::Int(n) => head(out, 1, (-1 - *n) as u64),
            Item::Bytes(b) => {
                head(out, 2, b.len() as u64);
                out.extend_from_slice(b);
            }
            Item::Text(t) => {
                head(out, 3, t.len() as u64);
                out.extend_from_slice(t.as_bytes());
            }
            Item::Map(entries) => {
                head(out, 5, entries.len() as u64);
                for (key, value) in entries {
                    write(out, key);
                    write(out, value);
                }
            }
        }
    }

    pub fn encode(item: &Item) -> Vec<u8> {
        let mut out = Vec::new();
        write(&mut out, item);
        out
    }

    #[test]
    fn encodes_rfc_8949_appendix_a_examples() {
        assert_eq!(encode(&Item::Int(10)), [0x0a]);
        assert_eq!(encode(&Item::Int(-7)), [0x26]);
        assert_eq!(encode(&Item::Int(500)), [0x19, 0x01, 0xf4]);
        assert_eq!(encode(&Item::Text("a")), [0x61, 0x61]);
        assert_eq!(
            encode(&Item::Map(vec![(Item::Int(1), Item::Int(2))])),
            [0xa1, 0x01, 0x02]
        );
    }
}

use cbor::Item;

const UP: u8 = 0x01;
const UV: u8 = 0x04;
const AT: u8 = 0x40;

impl Authenticator {
    pub fn new(rp_id: &str, origin: &str) -> Self {
        Self {
            rp_id: rp_id.to_owned(),
            origin: origin.to_owned(),
            tamper: false,
            credentials: Vec::new(),
        }
    }

    fn client_data(&self, kind: &str, challenge: &str) -> Vec<u8> {
        serde_json::to_vec(&json!({
            "type": kind,
            "challenge": challenge,
            "origin": self.origin,
            "crossOrigin": false,
        }))
        .unwrap()
    }

    fn rp_id_hash(&self) -> [u8; 32] {
        Sha256::digest(self.rp_id.as_bytes()).into()
    }

    /// `navigator.credentials.create()` with creation options (the JSON of
    /// `PublicKeyCredentialCreationOptions`): a new key pair.
    pub fn create(&mut self, options: &Value) -> Value {
        let key = SigningKey::random(&mut rand::rngs::OsRng);
        let mut id = vec![0u8; 16];
        rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut id);
        self.credentials.push(Credential {
            id,
            key,
            user_handle: unb64(options["user"]["id"].as_str().expect("user.id")),
            counter: 0,
        });
        self.attest(self.credentials.len() - 1, options)
    }

    /// A registration answer for a credential the authenticator already holds
    /// (what a browser would refuse through `excludeCredentials`).
    pub fn attest(&self, index: usize, options: &Value) -> Value {
        let credential = &self.credentials[index];
        let challenge = options["challenge"].as_str().expect("challenge");
        let client_data = self.client_data("webauthn.create", challenge);
        let point = credential.key.verifying_key().to_encoded_point(false);
        let cose_key = cbor::encode(&Item::Map(vec![
            (Item::Int(1), Item::Int(2)),  // kty: EC2
            (Item::Int(3), Item::Int(-7)), // alg: ES256
            (Item::Int(-1), Item::Int(1)), // crv: P-256
            (Item::Int(-2), Item::Bytes(point.x().unwrap())),
            (Item::Int(-3), Item::Bytes(point.y().unwrap())),
        ]));
        let mut auth_data = self.rp_id_hash().to_vec();
        auth_data.push(UP | UV | AT);
        auth_data.extend(credential.counter.to_be_bytes());
        auth_data.extend([0u8; 16]); // AAGUID: none
        auth_data.extend((credential.id.len() as u16).to_be_bytes());
        auth_data.extend(&credential.id);
        auth_data.extend(cose_key);
        let attestation_object = cbor::encode(&Item::Map(vec![
            (Item::Text("fmt"), Item::Text("none")),
            (Item::Text("attStmt"), Item::Map(vec![])),
            (Item::Text("authData"), Item::Bytes(&auth_data)),
        ]));
        json!({
            "id": b64(&credential.id),
            "rawId": b64(&credential.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(&client_data),
                "attestationObject": b64(&attestation_object),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        })
    }

    /// `navigator.credentials.get()` with request options: an assertion by
    /// the newest credential in `allowCredentials`, or, when the list is
    /// empty (a discoverable sign-in), by the newest credential held.
    pub fn get(&mut self, options: &Value) -> Value {
        let allowed: Vec<Vec<u8>> = options["allowCredentials"]
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|c| unb64(c["id"].as_str().unwrap()))
                    .collect()
            })
            .unwrap_or_default();
        let index = self
            .credentials
            .iter()
            .rposition(|c| allowed.is_empty() || allowed.contains(&c.id))
            .expect("the authenticator holds an allowed credential");
        self.assert_with(index, options)
    }

    /// An assertion by credential `index`, its counter moved on by one.
    pub fn assert_with(&mut self, index: usize, options: &Value) -> Value {
        let challenge = options["challenge"].as_str().expect("challenge").to_owned();
        let client_data = self.client_data("webauthn.get", &challenge);
        let rp_id_hash = self.rp_id_hash();
        let tamper = self.tamper;
        let credential = &mut self.credentials[index];
        credential.counter += 1;
        let mut auth_data = rp_id_hash.to_vec();
        auth_data.push(UP | UV);
        auth_data.extend(credential.counter.to_be_bytes());
        let mut signed = auth_data.clone();
        signed.extend(Sha256::digest(&client_data));
        if tamper {
            signed[0] ^= 1;
        }
        let signature: Signature = credential.key.sign(&signed);
        json!({
            "id": b64(&credential.id),
            "rawId": b64(&credential.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(&client_data),
                "authenticatorData": b64(&auth_data),
                "signature": b64(signature.to_der().as_bytes()),
                "userHandle": b64(&credential.user_handle),
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        })
    }
}
