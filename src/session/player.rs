//! Who plays a seat: a person, or the CPU at a strength. Parsed and named
//! here for the command line, the arena's menus and the HUD alike.

use std::fmt;
use std::str::FromStr;

use crate::ai::Strength;

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Player {
    /// A person at this machine: the keyboard or the buttons.
    Person,
    /// The CPU at a strength.
    Cpu(Strength),
    /// A player at another machine on the LAN (a person or a CPU client):
    /// the host's front end asks it over the network.
    Remote,
}

impl Player {
    /// Every choice, in the order a menu cycles through them.
    pub const ALL: [Player; 4] = [
        Player::Person,
        Player::Cpu(Strength::Easy),
        Player::Cpu(Strength::Normal),
        Player::Cpu(Strength::Hard),
    ];

    /// The next choice in a menu (after hard comes a person again).
    pub fn cycle(self) -> Player {
        let i = Player::ALL.iter().position(|&p| p == self).unwrap_or(0);
        Player::ALL[(i + 1) % Player::ALL.len()]
    }

    /// How a screen names it: `PLAYER`, `CPU · EASY`, ….
    pub fn label(self) -> String {
        match self {
            Player::Person => "PLAYER".to_string(),
            Player::Cpu(s) => format!("CPU · {}", s.name().to_uppercase()),
            Player::Remote => "LAN".to_string(),
        }
    }

    /// Whether a person plays the seat.
    pub fn is_person(self) -> bool {
        self == Player::Person
    }
}

impl fmt::Display for Player {
    /// The word a person types for it: `human`, `easy`, `normal`, `hard`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Person => f.write_str("human"),
            Player::Cpu(s) => f.write_str(s.name()),
            Player::Remote => f.write_str("remote"),
        }
    }
}

/// Why a typed player is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown player \"{0}\": use human (a person), or easy, normal or hard (the CPU)")]
pub struct ParsePlayerError(pub String);

impl FromStr for Player {
    type Err = ParsePlayerError;
    fn from_str(s: &str) -> Result<Player, ParsePlayerError> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "human" | "person" | "player" => Ok(Player::Person),
            "cpu" => Ok(Player::Cpu(Strength::Normal)),
            "remote" => Ok(Player::Remote),
            _ => t
                .parse::<Strength>()
                .map(Player::Cpu)
                .map_err(|_| ParsePlayerError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_player_reads_back_from_its_name() {
        for p in Player::ALL {
            assert_eq!(p.to_string().parse::<Player>(), Ok(p));
        }
        assert_eq!("CPU".parse::<Player>(), Ok(Player::Cpu(Strength::Normal)));
        assert!("robot".parse::<Player>().is_err());
    }

    #[test]
    fn the_menu_cycles_through_every_player() {
        let mut p = Player::Person;
        let mut seen = Vec::new();
        for _ in 0..4 {
            seen.push(p);
            p = p.cycle();
        }
        assert_eq!(seen, Player::ALL);
        assert_eq!(p, Player::Person);
        assert_eq!(Player::Cpu(Strength::Hard).label(), "CPU · HARD");
    }
}
