//! A replay as the text of one QR code, for a battle card
//! (`docs/replay-code.md`): `BTERM-BATTLE:` and then Base45 (RFC 9285) of
//! a version byte, the ruleset, a checksum and the replay's RON
//! compressed with DEFLATE. Base45 keeps the text in the QR code's
//! alphanumeric mode, which holds as much as its byte mode and which every
//! reader returns unchanged.

use crate::barcode::QR_BATTLE_PREFIX;
use crate::fingerprint::fnv1a;
use crate::rules::{Ruleset, RulesetId};

use super::Replay;

/// The payload format this build writes and reads.
pub const FORMAT: u8 = 1;

/// The most characters of Base45 a battle card carries: the capacity of a
/// version 40 QR code at error correction level M in alphanumeric mode
/// (3,391), less the prefix.
pub const MAX_TEXT: usize = 3391 - QR_BATTLE_PREFIX.len();

/// The largest compressed payload that fits ([`MAX_TEXT`] in Base45).
pub const MAX_PAYLOAD: usize = MAX_TEXT / 3 * 2 + (MAX_TEXT % 3) / 2;

/// The most bytes a payload may inflate to (a long game is some tens of
/// KiB of RON; a hostile code cannot make more).
pub const MAX_INFLATED: usize = 1 << 20;

const HEADER: usize = 6;

/// Why a battle card's code cannot be made or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// The replay does not fit one QR code.
    #[error(
        "this replay is too long for a battle card: {bytes} bytes compressed, and one QR code holds at most {MAX_PAYLOAD}; share the replay file itself instead"
    )]
    TooLong {
        /// Its compressed size.
        bytes: usize,
    },
    /// The replay could not be written as text.
    #[error("the replay cannot be written: {0}")]
    Write(String),
    /// Not a battle card's code at all.
    #[error("this code is not a bterm battle card (it does not start with {QR_BATTLE_PREFIX})")]
    Foreign,
    /// Made by another build with a format this one does not read.
    #[error(
        "this battle card was made in battle card format {found}; this bterm reads format {FORMAT}: play it with the bterm that made it"
    )]
    Format {
        /// The card's format.
        found: u8,
    },
    /// The code's text or data is damaged.
    #[error("this battle card's code is damaged ({0}); scan it again, or share the replay file")]
    Damaged(String),
    /// It holds a replay of another ruleset than asked.
    #[error("this battle card holds a {found} game, not a {expected} one")]
    Ruleset {
        /// In the code.
        found: RulesetId,
        /// Asked for.
        expected: RulesetId,
    },
}

/// The QR text of a replay, or why it does not fit.
pub fn encode<R: Ruleset>(replay: &Replay<R>) -> Result<String, CodeError> {
    let ron =
        crate::cards::write_ron_compact(replay).map_err(|e| CodeError::Write(e.to_string()))?;
    let packed = miniz_oxide::deflate::compress_to_vec(ron.as_bytes(), 10);
    let mut payload = Vec::with_capacity(HEADER + packed.len());
    payload.push(FORMAT);
    payload.push(R::CODE);
    payload.extend_from_slice(&fnv1a(ron.as_bytes()).to_le_bytes()[..4]);
    payload.extend_from_slice(&packed);
    if payload.len() > MAX_PAYLOAD {
        return Err(CodeError::TooLong {
            bytes: payload.len(),
        });
    }
    Ok(format!("{QR_BATTLE_PREFIX}{}", base45_encode(&payload)))
}

/// A battle card's code read back: its ruleset and the replay's RON text
/// (still to be parsed by that ruleset and played to check its hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// Whose rules.
    pub ruleset: RulesetId,
    /// The replay file's text.
    pub text: String,
}

/// Reads a battle card's QR text.
pub fn decode(text: &str) -> Result<Decoded, CodeError> {
    let text = text.trim();
    let body = text
        .get(..QR_BATTLE_PREFIX.len())
        .filter(|head| head.eq_ignore_ascii_case(QR_BATTLE_PREFIX))
        .map(|_| &text[QR_BATTLE_PREFIX.len()..])
        .ok_or(CodeError::Foreign)?;
    let payload = base45_decode(body).map_err(CodeError::Damaged)?;
    let Some(&format) = payload.first() else {
        return Err(CodeError::Damaged("it is empty".into()));
    };
    if format != FORMAT {
        return Err(CodeError::Format { found: format });
    }
    if payload.len() < HEADER {
        return Err(CodeError::Damaged("it is cut short".into()));
    }
    let ruleset = RulesetId::from_code(payload[1])
        .ok_or_else(|| CodeError::Damaged(format!("unknown ruleset {}", payload[1])))?;
    let bytes =
        miniz_oxide::inflate::decompress_to_vec_with_limit(&payload[HEADER..], MAX_INFLATED)
            .map_err(|e| {
                CodeError::Damaged(format!("its data does not inflate: {:?}", e.status))
            })?;
    if fnv1a(&bytes).to_le_bytes()[..4] != payload[2..HEADER] {
        return Err(CodeError::Damaged("its checksum does not match".into()));
    }
    let text =
        String::from_utf8(bytes).map_err(|_| CodeError::Damaged("its text is not UTF-8".into()))?;
    Ok(Decoded { ruleset, text })
}

impl Decoded {
    /// The replay, if the code holds ruleset `R`'s.
    pub fn replay<R: Ruleset>(&self) -> Result<Replay<R>, super::ReplayError> {
        if self.ruleset != R::ID {
            return Err(super::ReplayError::Setup(
                CodeError::Ruleset {
                    found: self.ruleset,
                    expected: R::ID,
                }
                .to_string(),
            ));
        }
        Replay::parse(&self.text, "the battle card")
    }
}

const B45: &[u8; 45] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:";

/// Base45 (RFC 9285): two bytes to three characters, a last byte to two.
pub fn base45_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() / 2 * 3 + 2);
    for chunk in bytes.chunks(2) {
        let (mut n, digits) = match *chunk {
            [a, b] => (usize::from(a) * 256 + usize::from(b), 3),
            [a] => (usize::from(a), 2),
            _ => (0, 0),
        };
        for _ in 0..digits {
            out.push(char::from(B45[n % 45]));
            n /= 45;
        }
    }
    out
}

/// Reads Base45 back; refuses characters outside the set, a dangling
/// character and groups over the byte range.
pub fn base45_decode(text: &str) -> Result<Vec<u8>, String> {
    let values: Vec<usize> = text
        .bytes()
        .map(|c| {
            B45.iter()
                .position(|&x| x == c.to_ascii_uppercase())
                .ok_or_else(|| format!("a character outside Base45 ({:?})", char::from(c)))
        })
        .collect::<Result<_, _>>()?;
    let mut out = Vec::with_capacity(values.len() / 3 * 2 + 1);
    for group in values.chunks(3) {
        match *group {
            [c, d, e] => {
                let n = c + d * 45 + e * 45 * 45;
                if n > 0xFFFF {
                    return Err("a Base45 group over two bytes".into());
                }
                out.extend_from_slice(&(n as u16).to_be_bytes());
            }
            [c, d] => {
                let n = c + d * 45;
                if n > 0xFF {
                    return Err("a Base45 group over one byte".into());
                }
                out.push(n as u8);
            }
            _ => return Err("its Base45 text is cut short".into()),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base45_matches_the_rfc_examples() {
        assert_eq!(base45_encode(b"AB"), "BB8");
        assert_eq!(base45_encode(b"Hello!!"), "%69 VD92EX0");
        assert_eq!(base45_encode(b"base-45"), "UJCLQE7W581");
        assert_eq!(base45_decode("QED8WEX0").unwrap(), b"ietf!");
        assert!(base45_decode("GGW").is_err(), "65535 + 1 is over two bytes");
        assert!(base45_decode("A").is_err());
        assert!(base45_decode("ab#").is_err());
    }

    #[test]
    fn base45_round_trips_every_length() {
        for n in 0..300usize {
            let bytes: Vec<u8> = (0..n).map(|i| (i * 37 + n) as u8).collect();
            assert_eq!(base45_decode(&base45_encode(&bytes)).unwrap(), bytes);
        }
    }

    fn terminal(actions: usize, seed: u64) -> Replay<crate::rules::terminal::Match> {
        use crate::cards::BattleType;
        use crate::rules::Seat;
        use crate::rules::terminal::{Action, Match, Setup};
        let setup = Setup::new(
            vec!["Dα-001".parse().unwrap()],
            vec!["Dα-012".parse().unwrap()],
            seed,
        );
        let mut x = seed | 1;
        let actions = (0..actions)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let seat = if x & 1 == 0 { Seat::P1 } else { Seat::P2 };
                (seat, Action::Stance(BattleType::ALL[(x >> 8) as usize % 3]))
            })
            .collect();
        Replay {
            rules: <Match as Ruleset>::version(&setup),
            setup,
            actions,
            final_hash: x,
        }
    }

    #[test]
    fn a_replay_round_trips_and_a_long_one_is_refused_with_its_size() {
        let short = terminal(40, 7);
        let text = encode(&short).unwrap();
        assert!(text.starts_with(QR_BATTLE_PREFIX));
        let back = decode(&text.to_ascii_lowercase()).unwrap();
        assert_eq!(back.ruleset, RulesetId::Terminal);
        assert_eq!(
            back.replay::<crate::rules::terminal::Match>().unwrap(),
            short
        );
        assert!(back.replay::<crate::rules::alpha::Match>().is_err());
        match encode(&terminal(20_000, 7)) {
            Err(CodeError::TooLong { bytes }) => assert!(bytes > MAX_PAYLOAD),
            other => panic!("a 20,000-action replay fits? {other:?}"),
        }
        assert_eq!(decode("BTERM:DA-001"), Err(CodeError::Foreign));
    }

    #[test]
    fn max_payload_is_what_max_text_holds() {
        assert_eq!(base45_encode(&vec![255; MAX_PAYLOAD]).len(), MAX_TEXT);
        assert!(base45_encode(&vec![255; MAX_PAYLOAD + 1]).len() > MAX_TEXT);
    }
}
