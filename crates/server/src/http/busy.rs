//! What an instance says when its room for request bodies is full
//! ([`super::budget`]): the marker error a counted body fails with, and the
//! words and wait of the 503 `server_busy` answer ([`super::error::ApiError::server_busy`]).
//! A leaf, so that the error type can recognise a full room without
//! importing the budget that uses the error type.

/// What a busy instance tells the client to wait, in seconds.
pub const RETRY_AFTER_SECS: u32 = 5;

pub const BUSY: &str = "The server is busy with other uploads. Please try again in a few seconds.";

/// The room was full when more of a body arrived.
#[derive(Debug)]
pub struct RoomFull;

impl std::fmt::Display for RoomFull {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the room for request bodies in flight is full")
    }
}

impl std::error::Error for RoomFull {}

/// Whether `err`, or any error it came from, is a [`RoomFull`].
pub fn is_room_full(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut current = Some(err);
    while let Some(err) = current {
        if err.is::<RoomFull>() {
            return true;
        }
        current = err.source();
    }
    false
}
