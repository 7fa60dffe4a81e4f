//! API-surface stub of `ed25519-dalek` 2.x for mcp-touchstone's Chio peer (`bench/chio_peer`).
//!
//! `chio-core-types` (built from Chio's own source for the scope-batch benchmark) names these
//! types in `crypto.rs`. The scope matcher never signs or verifies, so every function here
//! aborts with `unimplemented!`: no code path of the benchmark reaches one, and one that did
//! would panic rather than produce a signature or a verdict. This is not an ed25519
//! implementation.

#![no_std]

use core::fmt;

/// Byte length of a public key.
pub const PUBLIC_KEY_LENGTH: usize = 32;
/// Byte length of a secret key.
pub const SECRET_KEY_LENGTH: usize = 32;
/// Byte length of a signature.
pub const SIGNATURE_LENGTH: usize = 64;

const STUB: &str = "ed25519-dalek stub (bench/chio_peer): signing and verification are not built";

/// The error type of the fallible constructors and of `verify`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignatureError(());

impl fmt::Display for SignatureError {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        unimplemented!("{STUB}")
    }
}

#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "std")]
impl std::error::Error for SignatureError {}

/// An ed25519 signature (stub: never constructed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signature(());

impl Signature {
    /// Stub: aborts.
    pub fn from_bytes(_bytes: &[u8; SIGNATURE_LENGTH]) -> Self {
        unimplemented!("{STUB}")
    }

    /// Stub: aborts.
    pub fn from_slice(_bytes: &[u8]) -> Result<Self, SignatureError> {
        unimplemented!("{STUB}")
    }

    /// Stub: aborts.
    pub fn to_bytes(&self) -> [u8; SIGNATURE_LENGTH] {
        unimplemented!("{STUB}")
    }
}

/// A signing key (stub: never constructed).
#[derive(Debug, Clone)]
pub struct SigningKey(());

impl SigningKey {
    /// Stub: aborts.
    pub fn generate<R: rand_core::CryptoRng + rand_core::RngCore + ?Sized>(_rng: &mut R) -> Self {
        unimplemented!("{STUB}")
    }

    /// Stub: aborts.
    pub fn from_bytes(_secret: &[u8; SECRET_KEY_LENGTH]) -> Self {
        unimplemented!("{STUB}")
    }

    /// Stub: aborts.
    pub fn to_bytes(&self) -> [u8; SECRET_KEY_LENGTH] {
        unimplemented!("{STUB}")
    }

    /// Stub: aborts.
    pub fn verifying_key(&self) -> VerifyingKey {
        unimplemented!("{STUB}")
    }
}

/// A verifying (public) key (stub: never constructed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifyingKey(());

impl VerifyingKey {
    /// Stub: aborts.
    pub fn from_bytes(_bytes: &[u8; PUBLIC_KEY_LENGTH]) -> Result<Self, SignatureError> {
        unimplemented!("{STUB}")
    }

    /// Stub: aborts.
    pub fn to_bytes(&self) -> [u8; PUBLIC_KEY_LENGTH] {
        unimplemented!("{STUB}")
    }

    /// Stub: aborts.
    pub fn as_bytes(&self) -> &[u8; PUBLIC_KEY_LENGTH] {
        unimplemented!("{STUB}")
    }
}

/// `signature::Signer`, as ed25519-dalek re-exports it.
pub trait Signer<S> {
    /// Sign `msg`.
    fn sign(&self, msg: &[u8]) -> S;
}

/// `signature::Verifier`, as ed25519-dalek re-exports it.
pub trait Verifier<S> {
    /// Verify `signature` over `msg`.
    fn verify(&self, msg: &[u8], signature: &S) -> Result<(), SignatureError>;
}

impl Signer<Signature> for SigningKey {
    fn sign(&self, _msg: &[u8]) -> Signature {
        unimplemented!("{STUB}")
    }
}

impl Verifier<Signature> for VerifyingKey {
    fn verify(&self, _msg: &[u8], _signature: &Signature) -> Result<(), SignatureError> {
        unimplemented!("{STUB}")
    }
}
