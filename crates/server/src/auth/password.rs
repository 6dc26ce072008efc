//! Passwords: the policy (GoTrue's: at least 6 characters, at most 72 bytes)
//! and argon2id hashing, always off the async runtime.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use super::error::AuthError;
use crate::config::PasswordHashConfig;

pub const MAX_BYTES: usize = 72;

/// Wrong passwords for one account within [`FAILURE_WINDOW_SECS`]: from one
/// client address, before that address's sign-ins to the account wait for
/// the window to end; from all addresses together, before every address that
/// has failed on the account waits (see [`refusal`]).
pub const MAX_FAILURES: i64 = 5;
/// The window of [`MAX_FAILURES`]: 5 minutes, so at most 60 guesses an hour
/// from one address.
pub const FAILURE_WINDOW_SECS: i64 = 300;

/// Wrong passwords counted in the current window of [`FAILURE_WINDOW_SECS`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RecentFailures {
    /// For the account (the email or phone as given), from any address.
    pub account: i64,
    /// For the account, from the client's address.
    pub account_from_address: i64,
    /// From the client's address, for any account.
    pub address: i64,
}

/// Why a password sign-in must wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// This address failed too often on this account, or failed on an
    /// account that many addresses are guessing at.
    Account,
    /// This address failed too often on any accounts.
    Address,
}

/// Wrong passwords for an account that an address may make in a window
/// while the account is under attack (issue 43: its owner, mistyping once
/// while a crowd guessed, waited 169 s). A crowd of addresses gets this many
/// guesses each per window instead of one; the owner gets two typos.
pub const OWNER_TYPOS: i64 = 2;

/// Whether a password sign-in may be tried, before the password is checked.
/// An address with at most [`OWNER_TYPOS`] wrong passwords for the account is
/// never refused for the account's sake, so nobody can lock an owner out by
/// guessing wrong, and an owner who mistypes during an attack still signs in;
/// once [`MAX_FAILURES`] wrong passwords for the account came from anywhere,
/// an address with more waits, so a crowd of addresses gets
/// `OWNER_TYPOS + 1` guesses each per window. An address with
/// `max_per_address` wrong passwords across accounts waits too (one client
/// guessing at many accounts).
pub fn refusal(failures: RecentFailures, max_per_address: i64) -> Option<Refusal> {
    if failures.account_from_address >= MAX_FAILURES
        || (failures.account_from_address > OWNER_TYPOS && failures.account >= MAX_FAILURES)
    {
        Some(Refusal::Account)
    } else if failures.address >= max_per_address {
        Some(Refusal::Address)
    } else {
        None
    }
}

/// Checks a new password against the policy.
pub fn check_policy(password: &str, min_length: usize) -> Result<(), AuthError> {
    let min_length = min_length.max(6);
    if password.len() > MAX_BYTES {
        return Err(AuthError::validation(format!(
            "Password cannot be longer than {MAX_BYTES} characters"
        )));
    }
    if password.chars().count() < min_length {
        return Err(AuthError::weak_password(
            format!("Password should be at least {min_length} characters."),
            &["length"],
        ));
    }
    Ok(())
}

fn hasher(params: PasswordHashConfig) -> Result<Argon2<'static>, AuthError> {
    let params = Params::new(
        params.memory_kib,
        params.iterations,
        params.parallelism,
        None,
    )
    .map_err(|err| AuthError::internal(anyhow::anyhow!("bad argon2 parameters: {err}")))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// The PHC string of `password`.
pub async fn hash(password: String, params: PasswordHashConfig) -> Result<String, AuthError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut rand::rngs::OsRng);
        hasher(params)?
            .hash_password(password.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|err| AuthError::internal(anyhow::anyhow!("argon2: {err}")))
    })
    .await
    .map_err(AuthError::internal)?
}

/// Whether `password` matches `phc`. With no stored hash, a dummy hash is
/// checked anyway so an unknown address takes as long as a wrong password.
pub async fn verify(
    password: String,
    phc: Option<String>,
    params: PasswordHashConfig,
) -> Result<bool, AuthError> {
    tokio::task::spawn_blocking(move || {
        let argon2 = hasher(params)?;
        let Some(phc) = phc else {
            let salt = SaltString::generate(&mut rand::rngs::OsRng);
            let _ = argon2.hash_password(password.as_bytes(), &salt);
            return Ok(false);
        };
        let Ok(parsed) = PasswordHash::new(&phc) else {
            return Ok(false);
        };
        // The parameters stored in the hash are the ones used to check it.
        Ok(Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok())
    })
    .await
    .map_err(AuthError::internal)?
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHEAP: PasswordHashConfig = PasswordHashConfig {
        memory_kib: 64,
        iterations: 1,
        parallelism: 1,
    };

    #[test]
    fn the_policy_wants_6_characters_and_at_most_72_bytes() {
        assert_eq!(check_policy("12345", 6).unwrap_err().code, "weak_password");
        assert!(check_policy("123456", 6).is_ok());
        assert_eq!(
            check_policy(&"x".repeat(73), 6).unwrap_err().code,
            "validation_failed"
        );
        assert_eq!(check_policy("1234567", 3).map_err(|e| e.code), Ok(()));
        assert!(check_policy("12345", 3).is_err(), "the floor is 6");
    }

    #[test]
    fn only_addresses_that_failed_wait() {
        let failures = |account, account_from_address, address| RecentFailures {
            account,
            account_from_address,
            address,
        };
        // A clean address tries, however many guesses the account drew.
        assert_eq!(refusal(failures(0, 0, 0), 30), None);
        assert_eq!(refusal(failures(500, 0, 0), 30), None);
        // One address's own typos: five tries per window.
        assert_eq!(refusal(failures(4, 4, 4), 30), None);
        assert_eq!(refusal(failures(5, 5, 5), 30), Some(Refusal::Account));
        // Many addresses guessing: each that failed on the account three
        // times waits; one or two typos (the owner's) do not.
        assert_eq!(refusal(failures(4, 3, 3), 30), None);
        assert_eq!(refusal(failures(500, 1, 1), 30), None);
        assert_eq!(refusal(failures(500, 2, 2), 30), None);
        assert_eq!(refusal(failures(5, 3, 3), 30), Some(Refusal::Account));
        // One address guessing at many accounts.
        assert_eq!(refusal(failures(1, 0, 29), 30), None);
        assert_eq!(refusal(failures(0, 0, 30), 30), Some(Refusal::Address));
    }

    #[tokio::test]
    async fn a_hash_is_argon2id_and_verifies_only_its_password() {
        let phc = hash("correct horse".into(), CHEAP).await.unwrap();
        assert!(phc.starts_with("$argon2id$"));
        assert!(
            verify("correct horse".into(), Some(phc.clone()), CHEAP)
                .await
                .unwrap()
        );
        assert!(
            !verify("wrong horse".into(), Some(phc), CHEAP)
                .await
                .unwrap()
        );
        assert!(!verify("anything".into(), None, CHEAP).await.unwrap());
    }
}
