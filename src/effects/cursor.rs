//! Reading sentences back: the cursor both effect grammars (the older
//! games' and the Digimon Card Game's) read with, and its error.

/// Where and why a sentence is not one the grammar writes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at character {column}: expected {expected}, found \"{found}\"")]
pub struct ParseError {
    /// 1-based character column.
    pub column: usize,
    /// What the grammar wanted there.
    pub expected: String,
    /// The text found there (shortened).
    pub found: String,
}

/// A place in a sentence being read.
pub(crate) struct Cursor<'a> {
    /// The sentence.
    pub text: &'a str,
    /// Where reading is, in bytes.
    pub pos: usize,
}

/// A step of reading.
pub(crate) type PResult<T> = Result<T, ParseError>;

impl<'a> Cursor<'a> {
    pub(crate) fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    pub(crate) fn error<T>(&self, expected: impl Into<String>) -> PResult<T> {
        Err(ParseError {
            column: self.text[..self.pos].chars().count() + 1,
            expected: expected.into(),
            found: self.rest().chars().take(24).collect(),
        })
    }

    pub(crate) fn eat(&mut self, lit: &str) -> bool {
        if self.rest().starts_with(lit) {
            self.pos += lit.len();
            true
        } else {
            false
        }
    }

    /// Eats an ASCII literal whatever the case of its first letter (a
    /// clause that may start a sentence).
    pub(crate) fn eat_any_case(&mut self, lit: &str) -> bool {
        let rest = self.rest();
        let Some(head) = rest.get(..lit.len()) else {
            return false;
        };
        if head.is_char_boundary(1)
            && head[..1].eq_ignore_ascii_case(&lit[..1])
            && head[1..] == lit[1..]
        {
            self.pos += lit.len();
            true
        } else {
            false
        }
    }

    pub(crate) fn expect(&mut self, lit: &str) -> PResult<()> {
        if self.eat(lit) {
            Ok(())
        } else {
            self.error(format!("\"{lit}\""))
        }
    }

    /// The longest entry of `table` the text starts with.
    pub(crate) fn one_of<T: Copy>(&mut self, table: &[(&str, T)], what: &str) -> PResult<T> {
        let best = table
            .iter()
            .filter(|(w, _)| self.rest().starts_with(w))
            .max_by_key(|(w, _)| w.len())
            .copied();
        match best {
            Some((w, v)) => {
                self.pos += w.len();
                Ok(v)
            }
            None => self.error(what),
        }
    }

    pub(crate) fn digits(&mut self) -> PResult<u64> {
        let n = self.rest().bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return self.error("a number");
        }
        let v = self.rest()[..n]
            .parse()
            .or_else(|_| self.error("a smaller number"))?;
        self.pos += n;
        Ok(v)
    }

    pub(crate) fn number<T: TryFrom<u64>>(&mut self) -> PResult<T> {
        let start = self.pos;
        let v = self.digits()?;
        T::try_from(v).or_else(|_| {
            self.pos = start;
            self.error("a number in range")
        })
    }

    pub(crate) fn signed(&mut self) -> PResult<i32> {
        let negative = if self.eat("+") {
            false
        } else if self.eat("-") {
            true
        } else {
            return self.error("\"+\" or \"-\"");
        };
        let magnitude =
            i64::try_from(self.digits()?).or_else(|_| self.error("a smaller number"))?;
        let v = if negative { -magnitude } else { magnitude };
        i32::try_from(v).or_else(|_| self.error("a number in range"))
    }

    pub(crate) fn decimal(&mut self) -> PResult<u16> {
        let whole = self.digits()?;
        let mut frac = 0;
        if self.rest().starts_with('.')
            && self.rest()[1..].starts_with(|c: char| c.is_ascii_digit())
        {
            self.pos += 1;
            let n = self.rest().bytes().take_while(u8::is_ascii_digit).count();
            if n > 2 {
                return self.error("at most two decimals");
            }
            frac = self.digits()? * if n == 1 { 10 } else { 1 };
        }
        u16::try_from(whole * 100 + frac).or_else(|_| self.error("a smaller factor"))
    }

    pub(crate) fn bracketed(&mut self) -> PResult<String> {
        self.expect("[")?;
        let Some(end) = self.rest().find(']') else {
            return self.error("\"]\"");
        };
        let name = self.rest()[..end].to_string();
        self.pos += end + 1;
        Ok(name)
    }
}
