//! The messages between a host and its clients: versioned serde types,
//! sent as JSON on renet's reliable ordered channel. Each side checks a
//! message's size before it parses it, and a client of another protocol
//! version is refused with both versions named.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::Lan;
use crate::cards::CardNumber;
use crate::rules::{Outcome, Question, Reply, RulesetId, Seat};

/// The protocol's version: bumped whenever a message changes shape or
/// meaning. Host and client must speak the same one.
pub const PROTOCOL_VERSION: u32 = 2;

/// The largest message either side accepts, in bytes (a 4-seat Alpha view
/// is about 30 KB).
pub const MAX_MESSAGE: usize = 512 * 1024;

/// The longest name a player may give (longer ones are cut).
pub const MAX_NAME: usize = 24;

/// Whether a character from outside (another machine, a file) must not
/// reach a screen as it is: control characters (a newline forges a line,
/// an escape moves the cursor) and the invisible characters that reorder or
/// hide text (bidirectional overrides and isolates such as U+202E, marks,
/// zero-width characters, the byte-order mark), and the line and paragraph
/// separators U+2028 and U+2029 (a terminal may break the line there).
pub fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2069}'
                | '\u{FEFF}'
        )
}

/// What a client asks to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// A player, who needs the table's join code.
    Player,
    /// A spectator, who sees only what is public.
    Spectator,
}

/// A client's first message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// The client's protocol version.
    pub version: u32,
    /// The ruleset the client expects to play.
    pub ruleset: RulesetId,
    /// The player's name, as the lobby shows it.
    pub name: String,
    /// Player or spectator.
    pub role: Role,
    /// The table's join code (players only).
    pub code: String,
    /// The team or deck the player brings (players only).
    pub cards: Vec<CardNumber>,
    /// The rejoin token the host gave this seat before a drop.
    pub rejoin: Option<u64>,
}

/// A client's message to the host.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub enum ToHost<R: Lan> {
    /// The first message: who the client is and what it wants.
    Hello(Hello),
    /// Instead of a hello: which game the table plays, with how many seats
    /// and which protocol (the host answers [`ToClient::Table`] and closes
    /// the connection; nobody joins).
    Which,
    /// An answer to the question numbered `asked`.
    Answer {
        /// The question's number, from [`ToClient::Ask`].
        asked: u64,
        /// The answer.
        reply: Reply<R::Action>,
    },
    /// The client leaves the table.
    Bye,
}

/// What a table says of itself to a client that asks before joining.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableInfo {
    /// The host's protocol version.
    pub version: u32,
    /// The game the table plays.
    pub ruleset: RulesetId,
    /// Its seats.
    pub seats: usize,
    /// Its seats nobody has taken yet.
    pub open: usize,
    /// The table's name.
    pub name: String,
}

/// The host's answer to [`ToHost::Which`], read without knowing the game:
/// the table's facts, or (from a host of protocol 1, which knew no such
/// question) a refusal that still names its game and version.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub enum WhichAnswer {
    /// The table's facts.
    Table(TableInfo),
    /// The host refused the question.
    Refused {
        /// The host's protocol version.
        version: u32,
        /// The game the table plays.
        game: RulesetId,
        /// Why, in words.
        why: String,
    },
}

/// A seat as the lobby shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatLine {
    /// The seat.
    pub seat: Seat,
    /// Who plays it ("open" while nobody does).
    pub who: String,
    /// Whether it is ready (a player with cards, or a CPU).
    pub ready: bool,
    /// Whether it is dropped and may rejoin.
    pub reconnecting: bool,
}

/// A question sent to a remote seat, with everything its front end needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Asked<R: Lan> {
    /// The question's number (an answer names it).
    pub asked: u64,
    /// The legal answers.
    pub answers: Vec<R::Action>,
    /// Seconds left before the host takes the default.
    pub seconds: f32,
    /// The default taken when the time runs out (`None`: a pass).
    pub on_timeout: Option<R::Action>,
    /// Lines shown before the question.
    pub lines: Vec<String>,
    /// The question itself.
    pub text: String,
    /// Each key and the answer it gives.
    pub keys: Vec<(String, Reply<R::Action>)>,
    /// Lines the seat may type that are not choices, with why each is
    /// refused (the rules' words, [`crate::rules::Ruleset::refusals`]); an
    /// earlier host sends none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refusals: Vec<(String, String)>,
}

impl<R: Lan> Asked<R> {
    /// A question as the host sends it, with `seconds` to answer counted
    /// `since` it was first asked.
    pub fn of(
        asked: u64,
        q: &Question<R::Ask, R::Action>,
        seconds: f32,
        since: std::time::Instant,
    ) -> Asked<R> {
        Asked {
            asked,
            answers: q.answers.clone(),
            seconds: (seconds - since.elapsed().as_secs_f32()).max(0.0),
            on_timeout: q.on_timeout,
            lines: q.prompt.lines.clone(),
            text: q.prompt.text.clone(),
            keys: q.prompt.keys.clone(),
            refusals: Vec::new(),
        }
    }

    /// The question with the rules' refusals for what the seat may type.
    pub fn refusing(mut self, refusals: Vec<(String, String)>) -> Asked<R> {
        self.refusals = refusals;
        self
    }

    /// Why `typed` is refused, when the host said: the refusal of the
    /// longest line it starts with (case and spacing aside; `play Greymon
    /// on Agumon` is `play Greymon`'s).
    pub fn refusal(&self, typed: &str) -> Option<String> {
        let norm = |s: &str| {
            s.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        };
        let typed = norm(typed);
        self.refusals
            .iter()
            .filter(|(line, _)| {
                let line = norm(line);
                typed == line || typed.starts_with(&format!("{line} "))
            })
            .max_by_key(|(line, _)| line.len())
            .map(|(_, why)| why.clone())
    }

    /// The question's prompt, for a keyboard.
    pub fn prompt(&self) -> crate::rules::Prompt<R::Action> {
        crate::rules::Prompt {
            lines: self.lines.clone(),
            text: self.text.clone(),
            keys: self.keys.clone(),
        }
    }
}

/// The host's message to a client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub enum ToClient<R: Lan> {
    /// The client has a seat (or watches).
    Welcome {
        /// The host's protocol version.
        version: u32,
        /// The table's name.
        table: String,
        /// The client's seat; `None` for a spectator.
        seat: Option<Seat>,
        /// The token that takes the seat back after a drop.
        rejoin: u64,
    },
    /// The client is refused; the host closes the connection.
    Refused {
        /// The host's protocol version.
        version: u32,
        /// The game the table plays (a client that asked for another may
        /// join again with this one).
        game: RulesetId,
        /// Why, in words.
        why: String,
    },
    /// The answer to [`ToHost::Which`].
    Table(TableInfo),
    /// The seats, while the table fills (and whenever they change).
    Lobby(Vec<SeatLine>),
    /// What happened, and the client's view after it.
    Update {
        /// The table's count of changes after these events (it only grows).
        step: u64,
        /// The events, in order (none of them holds a hidden card).
        events: Vec<R::Event>,
        /// What the client's seat (or a spectator) may know now.
        view: R::View,
    },
    /// A question for the client's seat.
    Ask(Asked<R>),
    /// The last answer was refused; the question stands.
    Refusal(String),
    /// The host closed the table before the game's end, and why.
    Closed(String),
    /// The game is over; the replay holds everything (nothing is hidden
    /// any more).
    Over {
        /// How it ended.
        outcome: Outcome,
        /// The game's replay, as a replay file holds it (RON).
        replay: String,
    },
}

/// Why a message could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// Over [`MAX_MESSAGE`].
    #[error("a message of {0} bytes is over the limit of {MAX_MESSAGE} bytes")]
    TooLarge(usize),
    /// Not a message of this protocol.
    #[error("not a bterm LAN message: {0}")]
    Malformed(String),
    /// A Hello of another protocol version.
    #[error(
        "this table speaks bterm LAN protocol {PROTOCOL_VERSION}; the client speaks protocol {0}: use the same bterm version on both machines"
    )]
    Version(u32),
}

/// A message as bytes.
pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    // The messages are plain data (no maps with non-string keys), so
    // serialising cannot fail; an empty message would be refused.
    serde_json::to_vec(message).unwrap_or_default()
}

/// Reads a message, checking its size first.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, WireError> {
    if bytes.len() > MAX_MESSAGE {
        return Err(WireError::TooLarge(bytes.len()));
    }
    serde_json::from_slice(bytes).map_err(|e| WireError::Malformed(short(&e.to_string())))
}

/// Reads a client's message. A Hello of another protocol version is told
/// apart from a malformed message, even when its other fields changed shape.
pub fn decode_to_host<R: Lan>(bytes: &[u8]) -> Result<ToHost<R>, WireError> {
    match decode::<ToHost<R>>(bytes) {
        Ok(ToHost::Hello(h)) if h.version != PROTOCOL_VERSION => Err(WireError::Version(h.version)),
        Ok(m) => Ok(m),
        Err(WireError::Malformed(why)) => {
            let v: serde_json::Value =
                serde_json::from_slice(bytes).map_err(|_| WireError::Malformed(why.clone()))?;
            match v
                .get("Hello")
                .and_then(|h| h.get("version"))
                .and_then(serde_json::Value::as_u64)
            {
                Some(version) if version != u64::from(PROTOCOL_VERSION) => Err(WireError::Version(
                    u32::try_from(version).unwrap_or(u32::MAX),
                )),
                _ => Err(WireError::Malformed(why)),
            }
        }
        Err(e) => Err(e),
    }
}

/// A parser's message, cut to a line.
fn short(s: &str) -> String {
    let mut s: String = s.chars().take(160).collect();
    s.retain(|c| !c.is_control());
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::alpha;

    #[test]
    fn a_question_carries_its_seat_s_refusals_and_an_older_host_s_has_none() {
        let asked = Asked::<alpha::Match> {
            asked: 7,
            answers: Vec::new(),
            seconds: 30.0,
            on_timeout: None,
            lines: vec!["1) done".into()],
            text: "P1 plays: ".into(),
            keys: Vec::new(),
            refusals: Vec::new(),
        }
        .refusing(vec![
            ("play Greymon".into(), "Greymon is above Level III".into()),
            (
                "play Metal Greymon".into(),
                "Metal Greymon is above Level III".into(),
            ),
        ]);
        let why = |typed: &str| asked.refusal(typed);
        assert_eq!(
            why("play Greymon").as_deref(),
            Some("Greymon is above Level III")
        );
        assert_eq!(
            why("  PLAY   greymon on Agumon").as_deref(),
            Some("Greymon is above Level III")
        );
        assert_eq!(
            why("play metal greymon").as_deref(),
            Some("Metal Greymon is above Level III")
        );
        assert_eq!(why("play Greymonx"), None);
        assert_eq!(why("play Grey"), None);
        assert_eq!(why("dance"), None);
        // On the wire and back; a host before this change sends no
        // refusals, and its question still reads.
        let message = ToClient::Ask(asked.clone());
        let bytes = encode(&message);
        assert_eq!(decode::<ToClient<alpha::Match>>(&bytes).unwrap(), message);
        let mut old: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        old["Ask"].as_object_mut().unwrap().remove("refusals");
        let old = serde_json::to_vec(&old).unwrap();
        match decode::<ToClient<alpha::Match>>(&old).unwrap() {
            ToClient::Ask(a) => {
                assert!(a.refusals.is_empty());
                assert_eq!(a.refusal("play Greymon"), None);
            }
            other => panic!("{other:?}"),
        }
    }

    fn hello(version: u32) -> Hello {
        Hello {
            version,
            ruleset: RulesetId::Alpha,
            name: "Tai".into(),
            role: Role::Player,
            code: "1234".into(),
            cards: Vec::new(),
            rejoin: None,
        }
    }

    #[test]
    fn a_hello_of_another_version_is_refused_with_both_versions() {
        let bytes = encode(&ToHost::<alpha::Match>::Hello(hello(PROTOCOL_VERSION + 1)));
        let e = decode_to_host::<alpha::Match>(&bytes).unwrap_err();
        assert_eq!(e, WireError::Version(PROTOCOL_VERSION + 1));
        let text = e.to_string();
        assert!(
            text.contains(&format!("protocol {PROTOCOL_VERSION}")),
            "{text}"
        );
        assert!(
            text.contains(&format!("protocol {}", PROTOCOL_VERSION + 1)),
            "{text}"
        );
        // A later version whose Hello has other fields is still named.
        let odd = br#"{"Hello":{"version":7,"nickname":"Tai"}}"#;
        assert_eq!(
            decode_to_host::<alpha::Match>(odd),
            Err(WireError::Version(7))
        );
        // The same version reads back.
        let bytes = encode(&ToHost::<alpha::Match>::Hello(hello(PROTOCOL_VERSION)));
        assert_eq!(
            decode_to_host::<alpha::Match>(&bytes),
            Ok(ToHost::Hello(hello(PROTOCOL_VERSION)))
        );
    }

    #[test]
    fn oversized_and_malformed_messages_are_refused_before_use() {
        let big = vec![b' '; MAX_MESSAGE + 1];
        assert_eq!(
            decode_to_host::<alpha::Match>(&big),
            Err(WireError::TooLarge(MAX_MESSAGE + 1))
        );
        for bad in [
            &b""[..],
            b"{",
            b"\xff\xfe",
            br#"{"Answer":{"asked":"x"}}"#,
            b"[1,2,3]",
        ] {
            assert!(
                matches!(
                    decode_to_host::<alpha::Match>(bad),
                    Err(WireError::Malformed(_))
                ),
                "{bad:?}"
            );
        }
    }
}
