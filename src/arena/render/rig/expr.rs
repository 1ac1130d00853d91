//! The arithmetic the body files are written in: numbers, vectors and
//! rotations, with names for a figure's measures.
//!
//! ```text
//! 0.55 * legs * height                   a number
//! (s * width * 0.55, -0.04, 0)           a vector (x left, y up, z forward)
//! head + Z * head_r                      vectors add; a vector times a number
//! rz(s * 0.6) * rx(0.3)                  rotations about an axis, in radians
//! arc(Y, normalize((s, 1, -0.2)))        the rotation taking one direction to another
//! if(n == 1, 0, i / (n - 1) * 2 - 1)     a choice (only the branch taken is worked out)
//! ```
//!
//! Operators, loosest first: `== != < > <= >=`; `+ -`; `* / %`; unary `-`;
//! a vector's `.x .y .z`. They group left to right, as in Rust, so a
//! formula copied from Rust code gives the very same `f32`. Functions:
//! `sqrt sin cos abs signum floor max min normalize splat rx ry rz arc if
//! has` (`has(Tail1)`: whether the figure has that joint yet). Names that
//! are not the figure's own: the joints (`Hips`, `ArmL`…), the tints
//! (`Body`, `Accent`, `Belly`, `Detail`, `Eye`), the plans (`Biped`…), the
//! axes `X Y Z`, `ZERO` and `PI`.

use std::fmt;

use bevy::math::{Quat, Vec3};

use super::Joint;
use crate::cards::figure::{Plan, Tint};

/// What a formula works out to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// A number.
    Num(f32),
    /// A vector.
    Vec(Vec3),
    /// A rotation.
    Rot(Quat),
    /// A joint.
    Joint(Joint),
    /// A colour of the figure's.
    Tint(Tint),
    /// A body plan.
    Plan(Plan),
}

impl Value {
    fn kind(self) -> &'static str {
        match self {
            Value::Num(_) => "a number",
            Value::Vec(_) => "a vector",
            Value::Rot(_) => "a rotation",
            Value::Joint(_) => "a joint",
            Value::Tint(_) => "a tint",
            Value::Plan(_) => "a plan",
        }
    }
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

/// A function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Func {
    Sqrt,
    Sin,
    Cos,
    Abs,
    Signum,
    Floor,
    Max,
    Min,
    Normalize,
    Splat,
    Rx,
    Ry,
    Rz,
    Arc,
    If,
    Has,
}

impl Func {
    const ALL: [(&'static str, Func, usize); 16] = [
        ("sqrt", Func::Sqrt, 1),
        ("sin", Func::Sin, 1),
        ("cos", Func::Cos, 1),
        ("abs", Func::Abs, 1),
        ("signum", Func::Signum, 1),
        ("floor", Func::Floor, 1),
        ("max", Func::Max, 2),
        ("min", Func::Min, 2),
        ("normalize", Func::Normalize, 1),
        ("splat", Func::Splat, 1),
        ("rx", Func::Rx, 1),
        ("ry", Func::Ry, 1),
        ("rz", Func::Rz, 1),
        ("arc", Func::Arc, 2),
        ("if", Func::If, 3),
        ("has", Func::Has, 1),
    ];
}

/// A parsed formula.
#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Num(f32),
    Name(String),
    Vec(Box<[Expr; 3]>),
    Neg(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
    Field(Box<Expr>, usize),
}

/// A formula as written in a body file, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    text: String,
    expr: Expr,
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// What a formula reads its names from.
pub trait Names {
    /// The value a name has here, if it has one.
    fn get(&self, name: &str) -> Option<Value>;
    /// Whether the figure has this joint yet.
    fn has_bone(&self, joint: Joint) -> bool;
}

impl Formula {
    /// Parses `text`, or says what is wrong and where in it.
    pub fn parse(text: &str) -> Result<Formula, String> {
        let tokens = lex(text).map_err(|e| format!("`{text}`: {e}"))?;
        let mut p = Parser { tokens, at: 0 };
        let expr = p.compare().map_err(|e| format!("`{text}`: {e}"))?;
        if let Some(t) = p.tokens.get(p.at) {
            return Err(format!("`{text}`: {t} is left over"));
        }
        Ok(Formula {
            text: text.to_string(),
            expr,
        })
    }

    /// Its value, reading names from `names`.
    pub fn eval(&self, names: &dyn Names) -> Result<Value, String> {
        eval(&self.expr, names).map_err(|e| format!("`{}`: {e}", self.text))
    }

    /// Its value, which must be a number.
    pub fn num(&self, names: &dyn Names) -> Result<f32, String> {
        match self.eval(names)? {
            Value::Num(n) => Ok(n),
            v => Err(format!("`{}` is {}, not a number", self.text, v.kind())),
        }
    }

    /// Its value, which must be a vector.
    pub fn vec(&self, names: &dyn Names) -> Result<Vec3, String> {
        match self.eval(names)? {
            Value::Vec(v) => Ok(v),
            v => Err(format!("`{}` is {}, not a vector", self.text, v.kind())),
        }
    }

    /// Its value, which must be a rotation.
    pub fn rot(&self, names: &dyn Names) -> Result<Quat, String> {
        match self.eval(names)? {
            Value::Rot(q) => Ok(q),
            v => Err(format!("`{}` is {}, not a rotation", self.text, v.kind())),
        }
    }

    /// Its value, which must be a tint.
    pub fn tint(&self, names: &dyn Names) -> Result<Tint, String> {
        match self.eval(names)? {
            Value::Tint(t) => Ok(t),
            v => Err(format!("`{}` is {}, not a tint", self.text, v.kind())),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Formula {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Formula, D::Error> {
        let text = String::deserialize(d)?;
        Formula::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// A name that is not the figure's own.
fn constant(name: &str) -> Option<Value> {
    let tint = |t| Some(Value::Tint(t));
    match name {
        "X" => return Some(Value::Vec(Vec3::X)),
        "Y" => return Some(Value::Vec(Vec3::Y)),
        "Z" => return Some(Value::Vec(Vec3::Z)),
        "ZERO" => return Some(Value::Vec(Vec3::ZERO)),
        "PI" => return Some(Value::Num(std::f32::consts::PI)),
        "Body" => return tint(Tint::Body),
        "Accent" => return tint(Tint::Accent),
        "Belly" => return tint(Tint::Belly),
        "Detail" => return tint(Tint::Detail),
        "Eye" => return tint(Tint::Eye),
        _ => {}
    }
    if let Some(j) = joint_named(name) {
        return Some(Value::Joint(j));
    }
    Plan::ALL
        .into_iter()
        .find(|p| format!("{p:?}") == name)
        .map(Value::Plan)
}

/// The joint of this name (`Hips`, `ArmL`…).
pub fn joint_named(name: &str) -> Option<Joint> {
    Joint::ALL.into_iter().find(|j| format!("{j:?}") == name)
}

fn eval(e: &Expr, names: &dyn Names) -> Result<Value, String> {
    let num = |e: &Expr| match eval(e, names)? {
        Value::Num(n) => Ok(n),
        v => Err(format!("{} where a number belongs", v.kind())),
    };
    Ok(match e {
        Expr::Num(n) => Value::Num(*n),
        Expr::Name(n) => names
            .get(n)
            .or_else(|| constant(n))
            .ok_or_else(|| format!("`{n}` is not a name here"))?,
        Expr::Vec(v) => Value::Vec(Vec3::new(num(&v[0])?, num(&v[1])?, num(&v[2])?)),
        Expr::Neg(a) => match eval(a, names)? {
            Value::Num(n) => Value::Num(-n),
            Value::Vec(v) => Value::Vec(-v),
            v => return Err(format!("cannot negate {}", v.kind())),
        },
        Expr::Field(a, i) => match eval(a, names)? {
            Value::Vec(v) => Value::Num(v[*i]),
            v => return Err(format!("{} has no .x, .y or .z", v.kind())),
        },
        Expr::Bin(op, a, b) => binary(*op, eval(a, names)?, eval(b, names)?)?,
        Expr::Call(f, args) => {
            if *f == Func::If {
                return if num(&args[0])? != 0.0 {
                    eval(&args[1], names)
                } else {
                    eval(&args[2], names)
                };
            }
            if *f == Func::Has {
                return match eval(&args[0], names)? {
                    Value::Joint(j) => Ok(Value::Num(if names.has_bone(j) { 1.0 } else { 0.0 })),
                    v => Err(format!("has() takes a joint, not {}", v.kind())),
                };
            }
            let vals = args
                .iter()
                .map(|a| eval(a, names))
                .collect::<Result<Vec<_>, _>>()?;
            call(*f, &vals)?
        }
    })
}

fn binary(op: Op, a: Value, b: Value) -> Result<Value, String> {
    use Value::{Num, Rot, Vec};
    let truth = |t: bool| Num(if t { 1.0 } else { 0.0 });
    Ok(match (op, a, b) {
        (Op::Add, Num(x), Num(y)) => Num(x + y),
        (Op::Sub, Num(x), Num(y)) => Num(x - y),
        (Op::Mul, Num(x), Num(y)) => Num(x * y),
        (Op::Div, Num(x), Num(y)) => Num(x / y),
        (Op::Rem, Num(x), Num(y)) => Num(x % y),
        (Op::Add, Vec(x), Vec(y)) => Vec(x + y),
        (Op::Sub, Vec(x), Vec(y)) => Vec(x - y),
        (Op::Mul, Vec(x), Vec(y)) => Vec(x * y),
        (Op::Mul, Vec(x), Num(y)) => Vec(x * y),
        (Op::Mul, Num(x), Vec(y)) => Vec(x * y),
        (Op::Div, Vec(x), Num(y)) => Vec(x / y),
        (Op::Mul, Rot(x), Rot(y)) => Rot(x * y),
        (Op::Mul, Rot(x), Vec(y)) => Vec(x * y),
        (Op::Eq, x, y) => truth(x == y),
        (Op::Ne, x, y) => truth(x != y),
        (Op::Lt, Num(x), Num(y)) => truth(x < y),
        (Op::Gt, Num(x), Num(y)) => truth(x > y),
        (Op::Le, Num(x), Num(y)) => truth(x <= y),
        (Op::Ge, Num(x), Num(y)) => truth(x >= y),
        (op, a, b) => return Err(format!("{op:?} of {} and {}", a.kind(), b.kind())),
    })
}

fn call(f: Func, v: &[Value]) -> Result<Value, String> {
    use Value::{Num, Rot, Vec};
    Ok(match (f, v) {
        (Func::Sqrt, [Num(x)]) => Num(x.sqrt()),
        (Func::Sin, [Num(x)]) => Num(x.sin()),
        (Func::Cos, [Num(x)]) => Num(x.cos()),
        (Func::Abs, [Num(x)]) => Num(x.abs()),
        (Func::Signum, [Num(x)]) => Num(x.signum()),
        (Func::Floor, [Num(x)]) => Num(x.floor()),
        (Func::Max, [Num(x), Num(y)]) => Num(x.max(*y)),
        (Func::Min, [Num(x), Num(y)]) => Num(x.min(*y)),
        (Func::Normalize, [Vec(x)]) => Vec(x.normalize()),
        (Func::Splat, [Num(x)]) => Vec(Vec3::splat(*x)),
        (Func::Rx, [Num(x)]) => Rot(Quat::from_rotation_x(*x)),
        (Func::Ry, [Num(x)]) => Rot(Quat::from_rotation_y(*x)),
        (Func::Rz, [Num(x)]) => Rot(Quat::from_rotation_z(*x)),
        (Func::Arc, [Vec(a), Vec(b)]) => Rot(Quat::from_rotation_arc(*a, *b)),
        (f, args) => {
            let kinds: std::vec::Vec<&str> = args.iter().map(|a| a.kind()).collect();
            return Err(format!("{f:?} of {}", kinds.join(", ")).to_lowercase());
        }
    })
}

/// A piece of a formula's text.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Num(f32),
    Name(String),
    Sym(&'static str),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Num(n) => write!(f, "`{n}`"),
            Token::Name(n) => write!(f, "`{n}`"),
            Token::Sym(s) => write!(f, "`{s}`"),
        }
    }
}

const SYMBOLS: [&str; 15] = [
    "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "%", "(", ")", ",", ".",
];

fn lex(text: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
        } else if c.is_ascii_digit() {
            let end = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(rest.len());
            let n: f32 = rest[..end]
                .parse()
                .map_err(|_| format!("`{}` is not a number", &rest[..end]))?;
            out.push(Token::Num(n));
            rest = &rest[end..];
        } else if c.is_ascii_alphabetic() || c == '_' {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            out.push(Token::Name(rest[..end].to_string()));
            rest = &rest[end..];
        } else if let Some(s) = SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
            out.push(Token::Sym(s));
            rest = &rest[s.len()..];
        } else {
            return Err(format!("`{c}` has no meaning in a formula"));
        }
    }
    Ok(out)
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn eat(&mut self, sym: &str) -> bool {
        let here = matches!(self.peek(), Some(Token::Sym(s)) if *s == sym);
        if here {
            self.at += 1;
        }
        here
    }

    fn expect(&mut self, sym: &str) -> Result<(), String> {
        if self.eat(sym) {
            Ok(())
        } else {
            Err(match self.peek() {
                Some(t) => format!("`{sym}` expected, found {t}"),
                None => format!("`{sym}` expected at the end"),
            })
        }
    }

    fn compare(&mut self) -> Result<Expr, String> {
        let a = self.sum()?;
        for (s, op) in [
            ("==", Op::Eq),
            ("!=", Op::Ne),
            ("<=", Op::Le),
            (">=", Op::Ge),
            ("<", Op::Lt),
            (">", Op::Gt),
        ] {
            if self.eat(s) {
                let b = self.sum()?;
                return Ok(Expr::Bin(op, Box::new(a), Box::new(b)));
            }
        }
        Ok(a)
    }

    fn sum(&mut self) -> Result<Expr, String> {
        let mut a = self.product()?;
        loop {
            let op = if self.eat("+") {
                Op::Add
            } else if self.eat("-") {
                Op::Sub
            } else {
                return Ok(a);
            };
            let b = self.product()?;
            a = Expr::Bin(op, Box::new(a), Box::new(b));
        }
    }

    fn product(&mut self) -> Result<Expr, String> {
        let mut a = self.unary()?;
        loop {
            let op = if self.eat("*") {
                Op::Mul
            } else if self.eat("/") {
                Op::Div
            } else if self.eat("%") {
                Op::Rem
            } else {
                return Ok(a);
            };
            let b = self.unary()?;
            a = Expr::Bin(op, Box::new(a), Box::new(b));
        }
    }

    fn unary(&mut self) -> Result<Expr, String> {
        if self.eat("-") {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        let mut a = self.atom()?;
        while self.eat(".") {
            let i = match self.peek() {
                Some(Token::Name(n)) if n == "x" => 0,
                Some(Token::Name(n)) if n == "y" => 1,
                Some(Token::Name(n)) if n == "z" => 2,
                _ => return Err("`.x`, `.y` or `.z` expected".to_string()),
            };
            self.at += 1;
            a = Expr::Field(Box::new(a), i);
        }
        Ok(a)
    }

    fn atom(&mut self) -> Result<Expr, String> {
        let Some(t) = self.peek().cloned() else {
            return Err("a value expected at the end".to_string());
        };
        self.at += 1;
        match t {
            Token::Num(n) => Ok(Expr::Num(n)),
            Token::Name(n) => {
                if !self.eat("(") {
                    return Ok(Expr::Name(n));
                }
                let Some(&(_, f, arity)) = Func::ALL.iter().find(|(name, _, _)| *name == n) else {
                    return Err(format!("`{n}` is not a function"));
                };
                let mut args = Vec::new();
                if !self.eat(")") {
                    loop {
                        args.push(self.compare()?);
                        if self.eat(")") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                if args.len() != arity {
                    return Err(format!("{n}() takes {arity}, not {}", args.len()));
                }
                Ok(Expr::Call(f, args))
            }
            Token::Sym("(") => {
                let a = self.compare()?;
                if self.eat(")") {
                    return Ok(a);
                }
                self.expect(",")?;
                let b = self.compare()?;
                self.expect(",")?;
                let c = self.compare()?;
                self.expect(")")?;
                Ok(Expr::Vec(Box::new([a, b, c])))
            }
            t => Err(format!("{t} where a value belongs")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Some2;

    impl Names for Some2 {
        fn get(&self, name: &str) -> Option<Value> {
            match name {
                "a" => Some(Value::Num(2.0)),
                "v" => Some(Value::Vec(Vec3::new(1.0, 2.0, 3.0))),
                _ => None,
            }
        }
        fn has_bone(&self, joint: Joint) -> bool {
            joint == Joint::Hips
        }
    }

    fn eval(text: &str) -> Result<Value, String> {
        Formula::parse(text)?.eval(&Some2)
    }

    #[test]
    fn formulas_group_as_rust_does() {
        assert_eq!(eval("1 + 2 * 3"), Ok(Value::Num(7.0)));
        assert_eq!(eval("8 / 2 / 2"), Ok(Value::Num(2.0)));
        assert_eq!(eval("-a * 0.5"), Ok(Value::Num(-1.0)));
        assert_eq!(eval("(1 + 2) * 3"), Ok(Value::Num(9.0)));
        // The same bits as the Rust expression, grouped left to right.
        let (x, y) = (0.55f32, 0.87f32);
        assert_eq!(
            eval("0.55 * 0.87 * 1.07 + 0.08"),
            Ok(Value::Num(x * y * 1.07 + 0.08))
        );
        assert_eq!(
            eval("v * a + Z * 0.1"),
            Ok(Value::Vec(Vec3::new(2.0, 4.0, 6.1)))
        );
        assert_eq!(eval("v.y * 3"), Ok(Value::Num(6.0)));
        assert_eq!(eval("if(a == 2, 5, nothing)"), Ok(Value::Num(5.0)));
        assert_eq!(eval("has(Hips) + has(Tail1)"), Ok(Value::Num(1.0)));
        assert_eq!(eval("rx(0) * v"), Ok(Value::Vec(Vec3::new(1.0, 2.0, 3.0))));
        assert_eq!(eval("signum(0)"), Ok(Value::Num(1.0)));
    }

    #[test]
    fn a_wrong_formula_says_what_is_wrong() {
        let err = |t: &str| Formula::parse(t).map(|_| ()).unwrap_err();
        assert!(err("1 +").contains("a value expected"), "{}", err("1 +"));
        assert!(err("(1, 2").contains("`,` expected"), "{}", err("(1, 2"));
        assert!(err("cube(2)").contains("not a function"));
        assert!(err("max(1)").contains("takes 2"));
        assert!(err("2 $ 3").contains("`$`"));
        assert!(err("1 2").contains("left over"));
        let e = eval("legz * 2").unwrap_err();
        assert!(e.contains("`legz` is not a name here"), "{e}");
        let e = eval("v + 1").unwrap_err();
        assert!(e.contains("a vector and a number"), "{e}");
        let e = Formula::parse("v").unwrap().num(&Some2).unwrap_err();
        assert!(e.contains("not a number"), "{e}");
    }
}
