//! Why a move a person typed is refused, in the rules' words: a card that
//! cannot be played now and the rule that stops it, a Digimon that cannot
//! block and why ("Greymon is Level IV: it goes on one of your Digimon in
//! play, face up; you have none").

use super::table::{Kind, Needs};
use super::{CardId, Match, PLAY_LIMIT, Wait};
use crate::rules::Seat;

impl Match {
    /// Why `typed` (a move that is not one of the choices) is refused, when
    /// it names a move bterm can explain: `play CARD`, `block CARD`,
    /// `command CARD`, `lead CARD`.
    pub fn refusal(&self, seat: Seat, typed: &str) -> Option<String> {
        let typed = typed.trim();
        let (verb, rest) = typed.split_once(' ').unwrap_or((typed, ""));
        let verb = verb.to_lowercase();
        // The card's name as typed, up to " on " or " with ".
        let lower = rest.to_lowercase();
        let end = [" on ", " with "]
            .iter()
            .filter_map(|w| lower.find(w))
            .min()
            .unwrap_or(rest.len());
        let name = rest.get(..end).unwrap_or(rest).trim();
        match verb.as_str() {
            "play" if !name.is_empty() => Some(self.why_not_play(seat, name)),
            "block" if !name.is_empty() => Some(self.why_not_block(seat, name)),
            "command" if !name.is_empty() => Some(self.why_not_command(seat, name)),
            "lead" if !name.is_empty() => Some(self.why_not_lead(seat, name)),
            _ => None,
        }
    }

    /// Every `play CARD` (a card in `seat`'s hand) and `block CARD` (a
    /// Digimon of theirs in play) with what [`Match::refusal`] says of it
    /// now: what a LAN client's keyboard says without the match. Only
    /// `seat`'s own cards are named.
    pub fn refusals(&self, seat: Seat) -> Vec<(String, String)> {
        let Some(st) = self.seats.get(seat.index()) else {
            return Vec::new();
        };
        let names = |ids: &mut dyn Iterator<Item = CardId>| {
            let mut n: Vec<String> = ids
                .filter_map(|id| Some(self.card(id)?.name().to_string()))
                .collect();
            n.sort();
            n.dedup();
            n
        };
        let hand = names(&mut st.hand.iter().copied());
        let mine = names(&mut st.digimon.iter().map(|m| m.card));
        hand.iter()
            .map(|n| (format!("play {n}"), self.why_not_play(seat, n)))
            .chain(
                hand.iter()
                    .map(|n| (format!("command {n}"), self.why_not_command(seat, n))),
            )
            .chain(
                mine.iter()
                    .map(|n| (format!("block {n}"), self.why_not_block(seat, n))),
            )
            .chain(
                mine.iter()
                    .map(|n| (format!("lead {n}"), self.why_not_lead(seat, n))),
            )
            .collect()
    }

    /// What is asked now, in words, for a refusal to say.
    pub(super) fn asked_now(&self, seat: Seat) -> String {
        match &self.wait {
            None => "nothing is asked now".to_string(),
            Some(w) if w.seat() != seat => format!("{} is answering now", w.seat()),
            Some(Wait::Discards(_)) => {
                "you are in the discard step now (done ends it; cards are played after it)"
                    .to_string()
            }
            Some(Wait::Plays(_)) => "you are playing cards now".to_string(),
            Some(Wait::Lead(..) | Wait::Act(..)) => "a Digimon of yours acts now".to_string(),
            Some(Wait::Supporters(_) | Wait::BlockSupporters(_)) => {
                "you are choosing supporters now".to_string()
            }
            Some(Wait::Block(_) | Wait::AlphaBlock(_)) => "you are asked to block now".to_string(),
            Some(Wait::Commands(_)) => "Command cards are asked for now".to_string(),
            Some(Wait::Pick { .. } | Wait::DiscardFor { .. }) => {
                "an effect's choice is asked now".to_string()
            }
            Some(Wait::Confirm(_)) => "an ability's use is asked now".to_string(),
        }
    }

    /// The cards of `ids` named `name` (spaces and case ignored).
    fn named<'a>(&'a self, ids: &'a [CardId], name: &'a str) -> impl Iterator<Item = CardId> + 'a {
        let want: String = name
            .chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect();
        ids.iter().copied().filter(move |&id| {
            self.card(id).is_some_and(|c| {
                let n: String = c
                    .name()
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .flat_map(char::to_lowercase)
                    .collect();
                n == want
            })
        })
    }

    fn why_not_play(&self, seat: Seat, name: &str) -> String {
        let Some(st) = self.seats.get(seat.index()) else {
            return format!("{seat} does not play at this table");
        };
        if !matches!(&self.wait, Some(Wait::Plays(s)) if *s == seat) {
            return format!(
                "cards are played face down in your Preparation Phase, after the discard step; {}",
                self.asked_now(seat)
            );
        }
        let Some(id) = self.named(&st.hand, name).next() else {
            let hand: Vec<String> = st.hand.iter().map(|&c| self.name_of(c)).collect();
            return format!(
                "there is no {name} in your hand (your hand: {})",
                if hand.is_empty() {
                    "empty".to_string()
                } else {
                    hand.join(", ")
                }
            );
        };
        let card = self.name_of(id);
        let Some(info) = self.info(id) else {
            return format!("{card} cannot be played now");
        };
        if self.limit_refuses(seat, id) {
            return format!("{card} is ◎: one of its name in play at a time, and you have one");
        }
        match info.kind {
            Kind::Command => {
                format!("{card} is a Command card: it is used in a battle, not played face down")
            }
            Kind::Option if st.played_options >= PLAY_LIMIT => format!(
                "you have played {PLAY_LIMIT} Option cards this turn, the most a turn allows"
            ),
            Kind::Digimon if st.played_digimon >= PLAY_LIMIT => {
                format!("you have played {PLAY_LIMIT} Digimon this turn, the most a turn allows")
            }
            Kind::Digimon if !info.level_iii => {
                let up = st.digimon.iter().any(|m| !m.down);
                match &info.needs {
                    _ if !up => format!(
                        "{card} is above Level III: it goes on one of your Digimon in play, face up (a Level III starts a new Digimon), and you have none face up"
                    ),
                    Needs::Jogress(..) => format!(
                        "{card} is a Jogress: it goes on a Digimon of yours in play with its partner from your hand, and the partner is not in your hand"
                    ),
                    _ => format!("{card} cannot be played on a Digimon of yours now"),
                }
            }
            _ => format!("{card} cannot be played now"),
        }
    }

    /// `seat`'s Digimon in play named `name`, and its name as printed; or
    /// why there is none.
    fn my_digimon(&self, seat: Seat, name: &str) -> Result<(&super::Mon, String), String> {
        let Some(st) = self.seats.get(seat.index()) else {
            return Err(format!("{seat} does not play at this table"));
        };
        let mine: Vec<CardId> = st.digimon.iter().map(|m| m.card).collect();
        let not_mine = || format!("{name} is not one of your Digimon in play");
        let id = self.named(&mine, name).next().ok_or_else(not_mine)?;
        let m = st
            .digimon
            .iter()
            .find(|m| m.card == id)
            .ok_or_else(not_mine)?;
        Ok((m, self.name_of(id)))
    }

    fn why_not_command(&self, seat: Seat, name: &str) -> String {
        let Some(st) = self.seats.get(seat.index()) else {
            return format!("{seat} does not play at this table");
        };
        let Some(id) = self.named(&st.hand, name).next() else {
            return format!("there is no {name} in your hand");
        };
        let card = self.name_of(id);
        if !self.info(id).is_some_and(|i| i.kind == Kind::Command) {
            return format!(
                "{card} is not a Command card: it is played face down in your Preparation Phase"
            );
        }
        if !matches!(&self.wait, Some(Wait::Commands(s)) if *s == seat) {
            return format!(
                "{card} is a Command card: it is used in a battle one of your Digimon fights, when you are asked for Command cards; {}",
                self.asked_now(seat)
            );
        }
        format!("{card} cannot be used in this battle")
    }

    fn why_not_lead(&self, seat: Seat, name: &str) -> String {
        let (m, card) = match self.my_digimon(seat, name) {
            Ok(found) => found,
            Err(why) => return why,
        };
        if m.down {
            return format!("{card} is face down: it acts once it is revealed");
        }
        if m.acted {
            return format!(
                "{card} has acted this Battle Phase: each Digimon acts once a Battle Phase"
            );
        }
        match &self.wait {
            Some(Wait::Lead(s, speed)) if *s == seat => format!(
                "{card} is Speed {}: your Digimon of Speed {speed} act before it (the fastest act first)",
                self.mon_speed(m)
            ),
            _ => format!(
                "the Digimon act one at a time, the fastest first, and you choose which leads only among equally fast ones; {}",
                self.asked_now(seat)
            ),
        }
    }

    fn why_not_block(&self, seat: Seat, name: &str) -> String {
        if self.seats.get(seat.index()).is_none() {
            return format!("{seat} does not play at this table");
        }
        let asked = matches!(&self.wait, Some(Wait::Block(s) | Wait::AlphaBlock(s)) if *s == seat);
        if !asked {
            return format!("nothing of yours is attacked now; {}", self.asked_now(seat));
        }
        let (m, card) = match self.my_digimon(seat, name) {
            Ok(found) => found,
            Err(why) => return why,
        };
        if m.down {
            return format!("{card} is face down: only a face-up Digimon blocks");
        }
        if m.tapped {
            return format!("{card} is tapped (it has acted): a tapped Digimon cannot block");
        }
        let attacker = self
            .battle
            .as_ref()
            .filter(|b| !b.alpha)
            .and_then(|b| b.sides[0].main);
        match attacker {
            Some(a) => format!(
                "{card} (Speed {}) is not faster than the attacker, {} (Speed {}): a blocker must be faster",
                self.mon_speed(m),
                self.name_of(a),
                self.speed(a)
            ),
            None => format!(
                "{card} cannot alpha-block: an alpha-block needs as many supporters as the alpha-attack has"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::cards::CardSet;
    use crate::rules::Seat;
    use crate::rules::alpha::{Match, Setup, deck};

    fn game() -> (Match, CardSet) {
        let cards = CardSet::embedded();
        let decks = ["courage", "friendship"].map(|d| deck::embedded(d, &cards).unwrap().unwrap());
        let m = Match::from_setup(&Setup::new(decks.to_vec(), 1), &cards).unwrap();
        (m, cards)
    }

    #[test]
    fn a_refused_play_names_the_rule_that_stops_it() {
        let (mut m, _) = game();
        // To P1's play step, discarding nothing.
        while m
            .legal_actions(Seat::P1)
            .iter()
            .all(|a| m.action_text(*a) != "play Agumon")
        {
            let seat = m.waiting_for().expect("someone is asked");
            let done = m.parse_action(seat, "done").unwrap();
            m.apply(seat, done).unwrap();
        }
        let why = m.refusal(Seat::P1, "play Greymon").unwrap();
        assert!(
            why.contains("above Level III") && why.contains("none face up"),
            "{why}"
        );
        // What a LAN client is sent: the same words, for P1's own cards
        // only.
        let sent = m.refusals(Seat::P1);
        assert!(
            sent.contains(&("play Greymon".to_string(), why.clone())),
            "{sent:?}"
        );
        let own: Vec<String> = m.seats[0]
            .hand
            .iter()
            .chain(m.seats[0].digimon.iter().map(|d| &d.card))
            .filter_map(|&id| Some(m.card(id)?.name().to_string()))
            .collect();
        for (line, _) in &sent {
            let name = line.split_once(' ').map_or("", |(_, n)| n);
            assert!(own.iter().any(|o| o == name), "{line} is not P1's");
        }
        let why = m.refusal(Seat::P1, "play Gabumon").unwrap();
        assert!(why.starts_with("there is no Gabumon in your hand"), "{why}");
        let why = m.refusal(Seat::P1, "block Agumon").unwrap();
        assert!(why.starts_with("nothing of yours is attacked now"), "{why}");
        assert_eq!(m.refusal(Seat::P1, "dance"), None);
    }

    /// A Command card used out of a battle, and a Digimon that has acted
    /// asked to lead, are refused with the rule, not with who is asked.
    #[test]
    fn a_refused_command_or_lead_names_the_rule_that_stops_it() {
        use super::super::table::Kind;
        let cards = CardSet::embedded();
        let (mut command, mut lead) = (None, None);
        for seed in 0..40u64 {
            let decks =
                ["courage", "friendship"].map(|d| deck::embedded(d, &cards).unwrap().unwrap());
            let mut m = Match::from_setup(&Setup::new(decks.to_vec(), seed), &cards).unwrap();
            let mut rng = crate::rules::alpha::Rng64::new(seed);
            for _ in 0..3000 {
                let Some(seat) = m.waiting_for() else { break };
                let st = &m.seats[0];
                let in_battle = matches!(m.wait, Some(super::Wait::Commands(Seat::P1)));
                if command.is_none() && !in_battle {
                    let c = st
                        .hand
                        .iter()
                        .copied()
                        .find(|&c| m.info(c).is_some_and(|i| i.kind == Kind::Command));
                    if let Some(c) = c {
                        let name = m.name_of(c);
                        command = m.refusal(Seat::P1, &format!("command {name}"));
                    }
                }
                let leading = matches!(m.wait, Some(super::Wait::Lead(Seat::P1, _)));
                if lead.is_none() && !leading {
                    let acted = st.digimon.iter().find(|d| d.acted && !d.down);
                    if let Some(d) = acted {
                        let name = m.name_of(d.card);
                        lead = m.refusal(Seat::P1, &format!("lead {name}"));
                    }
                }
                let legal = m.legal_actions(seat);
                let a = legal[rng.below(legal.len())];
                m.apply(seat, a).unwrap();
            }
            if command.is_some() && lead.is_some() {
                break;
            }
        }
        let command = command.expect("a Command card in P1's hand out of a battle");
        assert!(
            command.contains("is a Command card: it is used in a battle"),
            "{command}"
        );
        let lead = lead.expect("a Digimon of P1's that has acted");
        assert!(lead.contains("has acted this Battle Phase"), "{lead}");
    }

    #[test]
    fn an_alpha_attack_is_called_off_before_it_is_declared_and_not_offered_again() {
        use crate::rules::alpha::Action;
        let cards = CardSet::embedded();
        let decks = ["courage", "friendship"].map(|d| deck::embedded(d, &cards).unwrap().unwrap());
        for seed in 0..300_u64 {
            let mut m = Match::from_setup(&Setup::new(decks.to_vec(), seed), &cards).unwrap();
            let mut r = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            for _ in 0..3000 {
                let Some(seat) = m.waiting_for() else { break };
                let legal = m.legal_actions(seat);
                if legal.contains(&Action::AlphaAttack) {
                    m.apply(seat, Action::AlphaAttack).unwrap();
                    let q = m.question(seat).unwrap();
                    assert!(
                        q.prompt.text.contains("or call it off"),
                        "{}",
                        q.prompt.text
                    );
                    let off = m.parse_action(seat, "call off").unwrap();
                    assert_eq!(off, Action::Pass);
                    let events = m.apply(seat, off).unwrap();
                    let said: Vec<String> = events
                        .iter()
                        .map(|e| crate::rules::alpha::event::describe(e, &cards))
                        .collect();
                    assert!(said.iter().any(|s| s.contains("calls off")), "{said:?}");
                    // The same Digimon acts again, without the alpha-attack.
                    let again = m.legal_actions(seat);
                    assert!(again.contains(&Action::Attack(None)), "{again:?}");
                    assert!(!again.contains(&Action::AlphaAttack), "{again:?}");
                    return;
                }
                r ^= r << 13;
                r ^= r >> 7;
                r ^= r << 17;
                let a = legal[(r % legal.len() as u64) as usize];
                m.apply(seat, a).unwrap();
            }
        }
        panic!("no alpha-attack was offered in 300 random games");
    }
}
