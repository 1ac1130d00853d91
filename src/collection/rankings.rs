//! Rankings: every battle played (in the arena and with `bterm battle`),
//! its teams, result and points; wins and losses per card, the kiosk's
//! challenger streak and the best teams.

use rusqlite::params;

use super::{Store, StoreError, sql_error, time};
use crate::cards::CardNumber;
use crate::rules::Outcome;
use crate::rules::terminal::{Match, Side};
use crate::session::{Player, Table};

/// One seat of a finished battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRecord {
    /// Whether the CPU played it.
    pub cpu: bool,
    /// The team, in scan order.
    pub team: Vec<CardNumber>,
    /// Points at the end.
    pub points: i64,
}

/// A finished battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleRecord {
    /// `terminal` or `alpha`.
    pub ruleset: String,
    /// `cli` or `arena`.
    pub place: String,
    /// The seed.
    pub seed: u64,
    /// The winning seat (0 = P1); `None` for a draw.
    pub winner: Option<usize>,
    /// Rounds (or turns) played.
    pub rounds: u32,
    /// The seats.
    pub seats: Vec<SeatRecord>,
}

impl BattleRecord {
    /// A finished Terminal Battle: its teams, who played them, the result.
    pub fn terminal(table: &Table<Match>, place: &str) -> BattleRecord {
        let game = table.game();
        BattleRecord {
            ruleset: "terminal".into(),
            place: place.into(),
            seed: table.setup().seed,
            winner: match game.outcome() {
                Some(Outcome::Win(seat)) => Some(seat.index()),
                _ => None,
            },
            rounds: game.round(),
            seats: Side::BOTH
                .iter()
                .map(|&side| SeatRecord {
                    cpu: matches!(table.players().get(side.index()), Some(Player::Cpu(_))),
                    team: table.setup().teams[side.index()].clone(),
                    points: i64::from(game.view(side).points),
                })
                .collect(),
        }
    }
}

/// A card's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardRecord {
    /// The card.
    pub card: CardNumber,
    /// Battles won and lost on a team.
    pub wins: u32,
    /// Battles lost.
    pub losses: u32,
}

/// A team's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamRecord {
    /// The cards.
    pub team: Vec<CardNumber>,
    /// Wins.
    pub wins: u32,
    /// Battles.
    pub battles: u32,
}

/// What `bterm rankings` and the arena's board show.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Rankings {
    /// Battles recorded.
    pub battles: u32,
    /// Cards by wins (then fewest losses), most first.
    pub cards: Vec<CardRecord>,
    /// Teams by wins, most first.
    pub teams: Vec<TeamRecord>,
    /// A person's wins against the CPU in a row, up to the latest battle.
    pub streak: u32,
    /// The longest such run ever.
    pub best_streak: u32,
}

impl Store {
    /// Records a finished battle.
    pub fn record_battle(&mut self, b: &BattleRecord) -> Result<i64, StoreError> {
        let shown = self.path.display().to_string();
        self.write(|tx| {
            let e = |err: rusqlite::Error| sql_error(&shown, &err);
            tx.execute(
                "INSERT INTO battles(at, ruleset, place, seed, winner, rounds) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    time::now(),
                    b.ruleset,
                    b.place,
                    b.seed as i64,
                    b.winner.map(|w| w as i64),
                    b.rounds
                ],
            )
            .map_err(e)?;
            let id = tx.last_insert_rowid();
            for (seat, s) in b.seats.iter().enumerate() {
                let team: Vec<String> = s.team.iter().map(ToString::to_string).collect();
                tx.execute(
                    "INSERT INTO battle_seats(battle, seat, cpu, team, points) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![id, seat as i64, s.cpu, team.join(" "), s.points],
                )
                .map_err(e)?;
                let won = b.winner == Some(seat);
                let mut seen = Vec::new();
                for card in &s.team {
                    if seen.contains(card) {
                        continue;
                    }
                    seen.push(*card);
                    tx.execute(
                        "INSERT INTO battle_cards(battle, seat, card, won) VALUES (?1, ?2, ?3, ?4)",
                        params![id, seat as i64, card.to_string(), won],
                    )
                    .map_err(e)?;
                }
            }
            Ok(id)
        })
    }

    /// The rankings, `top` rows of cards and teams.
    pub fn rankings(&self, top: usize) -> Result<Rankings, StoreError> {
        let e = |err: rusqlite::Error| self.err(&err);
        let conn = self.conn();
        let battles: u32 = conn
            .query_row("SELECT count(*) FROM battles", [], |r| r.get(0))
            .map_err(e)?;
        let cards = triples(
            conn,
            "SELECT card, SUM(won), SUM(1 - won) FROM battle_cards GROUP BY card
             ORDER BY SUM(won) DESC, SUM(1 - won) ASC, card LIMIT ?1",
            top,
        )
        .map_err(e)?
        .into_iter()
        .filter_map(|(card, wins, losses)| {
            Some(CardRecord {
                card: card.parse().ok()?,
                wins,
                losses,
            })
        })
        .collect();
        let teams = triples(
            conn,
            "SELECT s.team, SUM(b.winner IS NOT NULL AND b.winner = s.seat), count(*)
             FROM battle_seats s JOIN battles b ON b.id = s.battle
             GROUP BY s.team ORDER BY 2 DESC, 3 ASC, s.team LIMIT ?1",
            top,
        )
        .map_err(e)?
        .into_iter()
        .filter_map(|(team, wins, battles)| {
            let team = team
                .split(' ')
                .filter(|t| !t.is_empty())
                .map(|t| t.parse().ok())
                .collect::<Option<Vec<CardNumber>>>()?;
            (wins > 0).then_some(TeamRecord {
                team,
                wins,
                battles,
            })
        })
        .collect();
        // The challenger streak: battles of one person against the CPU, in
        // order; a loss or a draw ends a run.
        let mut stmt = conn
            .prepare(
                "SELECT b.winner, (SELECT seat FROM battle_seats WHERE battle = b.id AND cpu = 0)
                 FROM battles b
                 WHERE (SELECT count(*) FROM battle_seats WHERE battle = b.id AND cpu = 0) = 1
                   AND (SELECT count(*) FROM battle_seats WHERE battle = b.id) = 2
                 ORDER BY b.id",
            )
            .map_err(e)?;
        let runs = stmt
            .query_map([], |r| {
                Ok((r.get::<_, Option<i64>>(0)?, r.get::<_, i64>(1)?))
            })
            .map_err(e)?;
        let (mut streak, mut best_streak) = (0, 0);
        for row in runs {
            let (winner, person) = row.map_err(e)?;
            if winner == Some(person) {
                streak += 1;
                best_streak = best_streak.max(streak);
            } else {
                streak = 0;
            }
        }
        Ok(Rankings {
            battles,
            cards,
            teams,
            streak,
            best_streak,
        })
    }
}

/// The rows of a query giving (text, count, count), at most `top`.
fn triples(
    conn: &rusqlite::Connection,
    sql: &str,
    top: usize,
) -> Result<Vec<(String, u32, u32)>, rusqlite::Error> {
    let mut stmt = conn.prepare(sql)?;
    let rows = stmt.query_map([top as i64], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    rows.collect()
}
