//! Body plans and signature parts as data: `assets/bodies/<plan>.ron` says
//! how each plan's skeleton and body are laid out from a figure's build,
//! and `assets/bodies/parts.ron` how each signature part (horns, wings, a
//! tail, armour…) is shaped and where it goes on whatever plan wears it.
//! Both are lists of steps (a bone, a part, a place a part may attach to,
//! a pair of mirrored sides, a loop, a choice) whose numbers are formulas
//! ([`super::expr`]). Read with the card files' `file:line:column` errors,
//! and tried on every plan with every part when first read.
//!
//! A step's formulas read the figure's build (`height`, `bulk`,
//! `head_size`, `arms`, `legs`), `blocks` (1 for a machine's boxy parts),
//! `plan`, and the names earlier steps gave with `Let`. A part's steps also
//! read where the plan put the head (`head`, `head_r`), the chest
//! (`chest`, `chest_w`) and the wings' root (`wing_root`), and the part's
//! own data (a horn's `count` and `length`, a weapon's `size`, its hand's
//! index `i` and side `s`…).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::expr::{Formula, Names, Value, joint_named};
use super::{Finish, Joint, Kit, Part, Shape};
use crate::cards::figure::{
    Build, Colours, EarKind, Feature, FigureSpec, Hand, HornAt, Limbs, Plan, Plate, Rgb, SpikesAt,
    TailTip, Tint, WeaponKind, WingKind,
};

/// The body files shipped with the game (name, text).
pub const EMBEDDED_BODIES: &[(&str, &str)] = &[
    (
        "assets/bodies/biped.ron",
        include_str!("../../../../assets/bodies/biped.ron"),
    ),
    (
        "assets/bodies/raptor.ron",
        include_str!("../../../../assets/bodies/raptor.ron"),
    ),
    (
        "assets/bodies/quadruped.ron",
        include_str!("../../../../assets/bodies/quadruped.ron"),
    ),
    (
        "assets/bodies/flyer.ron",
        include_str!("../../../../assets/bodies/flyer.ron"),
    ),
    (
        "assets/bodies/serpent.ron",
        include_str!("../../../../assets/bodies/serpent.ron"),
    ),
    (
        "assets/bodies/insect.ron",
        include_str!("../../../../assets/bodies/insect.ron"),
    ),
    (
        "assets/bodies/machine.ron",
        include_str!("../../../../assets/bodies/machine.ron"),
    ),
    (
        "assets/bodies/blob.ron",
        include_str!("../../../../assets/bodies/blob.ron"),
    ),
    (
        "assets/bodies/parts.ron",
        include_str!("../../../../assets/bodies/parts.ron"),
    ),
];

/// A joint as a step names it: `Hips`; `Arm*`, the left or right one of a
/// [`Step::Pair`]'s side; or a name a step bound to a joint.
#[derive(Debug, Clone, PartialEq)]
pub enum JointRef {
    /// This joint.
    Fixed(Joint),
    /// The left joint on a pair's first side, the right on its second.
    Mirror(Joint, Joint),
    /// The joint a name holds.
    Named(String),
}

impl<'de> Deserialize<'de> for JointRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<JointRef, D::Error> {
        let text = String::deserialize(d)?;
        if let Some(base) = text.strip_suffix('*') {
            return match (
                joint_named(&format!("{base}L")),
                joint_named(&format!("{base}R")),
            ) {
                (Some(l), Some(r)) => Ok(JointRef::Mirror(l, r)),
                _ => Err(serde::de::Error::custom(format!(
                    "`{text}`: there is no {base}L and {base}R joint"
                ))),
            };
        }
        if let Some(j) = joint_named(&text) {
            return Ok(JointRef::Fixed(j));
        }
        if text.starts_with(|c: char| c.is_ascii_lowercase()) {
            return Ok(JointRef::Named(text));
        }
        Err(serde::de::Error::custom(format!(
            "`{text}` is not a joint (Hips, ArmL, Arm* …) or a name"
        )))
    }
}

/// A part's shape, its sizes as formulas.
#[derive(Debug, Clone, Deserialize)]
pub enum ShapeOf {
    /// A sphere: its radius.
    Ball(Formula),
    /// A box: its size (a vector).
    Block(Formula),
    /// A capsule: radius, straight length.
    Capsule(Formula, Formula),
    /// A cone: base radius, height.
    Cone(Formula, Formula),
    /// A cylinder: radius, height.
    Cylinder(Formula, Formula),
    /// A ring: the tube's radius, the ring's.
    Torus(Formula, Formula),
}

/// A place on the figure that parts attach to, as the plan left it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Slot {
    /// A hand (0 left, 1 right): its joint and centre.
    Hand,
    /// A shoulder: its joint and top.
    Shoulder,
    /// A forearm: its joint, centre and length.
    Forearm,
    /// An arm with both: the shoulder's joint and top, the forearm's length.
    Arm,
    /// A foot: its joint and centre.
    Foot,
    /// A shin: its joint, centre and length.
    Shin,
    /// A point along the back: its joint, place and outward direction.
    Back,
    /// The snout's tip.
    Snout,
    /// Where a tail starts: the joint it hangs from and the place.
    TailRoot,
}

/// One step of a body plan or a part.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Step {
    /// Gives a name a value (a name given earlier, in this step list or
    /// one around it, takes the new value).
    Let(String, Formula),
    /// A joint, its parent and its pivot from the parent's.
    Bone {
        joint: JointRef,
        parent: JointRef,
        at: Formula,
    },
    /// A round part (a box on a machine) of this size.
    Blob {
        joint: JointRef,
        at: Formula,
        size: Formula,
        tint: Formula,
    },
    /// A limb segment from the joint down `len`.
    Limb {
        joint: JointRef,
        r: Formula,
        len: Formula,
        tint: Formula,
    },
    /// A limb segment from the joint along `dir`.
    LimbAlong {
        joint: JointRef,
        r: Formula,
        len: Formula,
        dir: Formula,
        tint: Formula,
    },
    /// Any part: its shape, centre, colour, and a rotation, scale and
    /// finish if not the plain ones.
    Part {
        joint: JointRef,
        shape: ShapeOf,
        at: Formula,
        tint: Formula,
        #[serde(default)]
        rot: Option<Formula>,
        #[serde(default)]
        scale: Option<Formula>,
        #[serde(default)]
        finish: Option<Finish>,
    },
    /// A pair of eyes on a head centred at `at`, of radius `r`.
    Eyes {
        at: Formula,
        r: Formula,
        wide: Formula,
    },
    /// The head's centre (from the head joint) and radius.
    Head { at: Formula, r: Formula },
    /// The snout's tip.
    Snout { at: Formula },
    /// Where wings attach, from the chest joint.
    WingRoot { at: Formula },
    /// Where a tail attaches.
    TailRoot { joint: JointRef, at: Formula },
    /// The chest's centre and half-width.
    Chest { at: Formula, w: Formula },
    /// This side's hand.
    Hand { joint: JointRef, at: Formula },
    /// This side's shoulder.
    Shoulder { joint: JointRef, at: Formula },
    /// This side's forearm.
    Forearm {
        joint: JointRef,
        at: Formula,
        len: Formula,
    },
    /// A foot.
    Foot { joint: JointRef, at: Formula },
    /// A shin.
    Shin {
        joint: JointRef,
        at: Formula,
        len: Formula,
    },
    /// A point along the back.
    Back {
        joint: JointRef,
        at: Formula,
        dir: Formula,
    },
    /// The steps twice: the left side (`s` = 1, `i` = 0, `Arm*` is `ArmL`)
    /// then the right (`s` = −1, `i` = 1, `ArmR`).
    Pair(Vec<Step>),
    /// The steps `count` times, `name` (or `i`) counting from 0.
    Repeat {
        count: Formula,
        #[serde(default)]
        name: Option<String>,
        steps: Vec<Step>,
    },
    /// The steps once for each value, `name` holding it and `i` counting.
    Each {
        name: String,
        values: Vec<Formula>,
        steps: Vec<Step>,
    },
    /// `then` when `when` is not 0, else `otherwise`.
    If {
        when: Formula,
        #[serde(default)]
        then: Vec<Step>,
        #[serde(default)]
        otherwise: Vec<Step>,
    },
    /// `then` with `names` holding the slot's values (the one at `index`
    /// for hands, shoulders, forearms, feet, shins and back points), if
    /// the plan has it; nothing if it has not.
    With {
        slot: Slot,
        #[serde(default)]
        index: Option<Formula>,
        names: Vec<String>,
        then: Vec<Step>,
    },
    /// The steps for each of the slots the plan has, `names` holding its
    /// values, `i` counting and `s` 1 for the first, −1 after.
    ForEach {
        slot: Slot,
        names: Vec<String>,
        steps: Vec<Step>,
    },
    /// The steps of a routine of the parts file.
    Call(String),
}

/// A body plan's file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanFile {
    /// Boxes instead of round shapes (machines).
    #[serde(default)]
    blocks: bool,
    /// The plan whose steps it takes, instead of its own.
    #[serde(default)]
    like: Option<Plan>,
    /// Its steps.
    #[serde(default)]
    steps: Vec<Step>,
}

/// The parts file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct PartsFile {
    /// Step lists the parts share, called by name.
    #[serde(default)]
    routines: BTreeMap<String, Vec<Step>>,
    /// Each part's steps, by its key (`Horns.Head`, `Wings.Bat`, `Halo`…).
    parts: BTreeMap<String, Vec<Step>>,
}

/// The body plans and parts, read.
#[derive(Debug, Clone)]
pub struct Bodies {
    plans: Vec<(Plan, String, PlanFile)>,
    parts: PartsFile,
}

/// How deep routines may call routines.
const DEEPEST_CALL: usize = 8;
/// The most times a `Repeat` goes round.
const MOST_REPEATS: f32 = 64.0;

impl Bodies {
    /// The shipped body files.
    ///
    /// A test keeps them whole; if one were not, its figures would lack
    /// what it failed to say, with a warning, rather than stop the game.
    pub fn embedded() -> &'static Bodies {
        static EMBEDDED: OnceLock<Bodies> = OnceLock::new();
        EMBEDDED.get_or_init(|| {
            // The shipped files are laid out with every part by a test, not
            // again at every start.
            Bodies::read(EMBEDDED_BODIES, false).unwrap_or_else(|e| {
                eprintln!("warning: {e}");
                Bodies {
                    plans: Vec::new(),
                    parts: PartsFile {
                        routines: BTreeMap::new(),
                        parts: BTreeMap::new(),
                    },
                }
            })
        })
    }

    /// Reads the body files (`<plan>.ron` for each plan, and `parts.ron`),
    /// naming the file, line and column of what is wrong, then builds every
    /// plan with every part to find a formula that names nothing or adds a
    /// vector to a number.
    #[cfg(test)]
    pub fn parse(files: &[(&str, &str)]) -> Result<Bodies, String> {
        Bodies::read(files, true)
    }

    /// Reads the body files; `lay_out_all`: and tries every plan with every
    /// part ([`Bodies::parse`]).
    fn read(files: &[(&str, &str)], lay_out_all: bool) -> Result<Bodies, String> {
        let mut plans = Vec::new();
        let mut parts = None;
        for (file, text) in files {
            let stem = file
                .rsplit('/')
                .next()
                .unwrap_or(file)
                .trim_end_matches(".ron");
            let at = |e: ron::error::SpannedError| {
                format!(
                    "{file}:{}:{}: {}",
                    e.span.start.line, e.span.start.col, e.code
                )
            };
            if stem == "parts" {
                parts = Some(crate::cards::read_ron::<PartsFile>(text).map_err(at)?);
                continue;
            }
            let Some(plan) = Plan::ALL
                .into_iter()
                .find(|p| format!("{p:?}").to_lowercase() == stem)
            else {
                return Err(format!(
                    "{file}: not a body plan's name (biped.ron, raptor.ron…) or parts.ron"
                ));
            };
            let data: PlanFile = crate::cards::read_ron(text).map_err(at)?;
            plans.push((plan, file.to_string(), data));
        }
        let parts = parts.ok_or("no parts.ron among the body files")?;
        let bodies = Bodies { plans, parts };
        for plan in Plan::ALL {
            let (_, file, data) = bodies.plan(plan).ok_or(format!(
                "no body file for the {plan:?} plan ({}.ron)",
                format!("{plan:?}").to_lowercase()
            ))?;
            if let Some(like) = data.like {
                match bodies.plan(like) {
                    Some((_, _, l)) if l.like.is_none() => {}
                    _ => {
                        return Err(format!(
                            "{file}: `like: {like:?}` must name a plan with steps of its own"
                        ));
                    }
                }
            }
            if !lay_out_all {
                continue;
            }
            for f in every_feature() {
                let spec = FigureSpec {
                    plan,
                    build: Build::default(),
                    colours: Colours {
                        body: Rgb([128, 128, 128]),
                        accent: Rgb([128, 128, 128]),
                        belly: None,
                        detail: None,
                        eyes: None,
                    },
                    parts: vec![f],
                };
                bodies.try_build(&spec)?;
            }
        }
        Ok(bodies)
    }

    fn plan(&self, plan: Plan) -> Option<&(Plan, String, PlanFile)> {
        self.plans.iter().find(|(p, _, _)| *p == plan)
    }

    /// Lays out `spec`'s plan and parts on `kit`, or says which file and
    /// formula went wrong.
    pub(super) fn lay_out(&self, spec: &FigureSpec, kit: &mut Kit) -> Result<(), String> {
        let Some(mut own) = self.plan(spec.plan) else {
            return Err(format!("no body file for the {:?} plan", spec.plan));
        };
        if let Some(like) = own.2.like.and_then(|l| self.plan(l)) {
            own = like;
        }
        let (_, file, PlanFile { steps, .. }) = own;
        Run::new(kit, &self.parts.routines, spec)
            .steps(steps)
            .map_err(|e| format!("{file}: {e}"))?;
        for f in &spec.parts {
            for (key, names) in feature_calls(f) {
                let Some(steps) = self.parts.parts.get(&key) else {
                    return Err(format!("assets/bodies/parts.ron: no part `{key}`"));
                };
                let mut run = Run::new(kit, &self.parts.routines, spec);
                run.part_names();
                for (n, v) in names {
                    run.define(n, v);
                }
                run.steps(steps)
                    .map_err(|e| format!("assets/bodies/parts.ron: {key}: {e}"))?;
            }
        }
        Ok(())
    }

    /// Whether the plan's figures are made of boxes (machines).
    pub fn blocks(&self, plan: Plan) -> bool {
        self.plan(plan).is_some_and(|(_, _, p)| p.blocks)
    }

    fn try_build(&self, spec: &FigureSpec) -> Result<(), String> {
        let mut kit = Kit::new(self.blocks(spec.plan));
        self.lay_out(spec, &mut kit)
    }
}

/// The steps each of a figure's parts runs, and the names its data gives.
fn feature_calls(f: &Feature) -> Vec<(String, Vec<(&'static str, Value)>)> {
    use Value::{Num, Tint as T};
    let one = |key: String, names: Vec<(&'static str, Value)>| vec![(key, names)];
    match f {
        Feature::Horns { count, length, at } => one(
            format!("Horns.{at:?}"),
            vec![("count", Num(*count as f32)), ("length", Num(*length))],
        ),
        Feature::Wings { kind, span, pairs } => one(
            format!("Wings.{kind:?}"),
            vec![("span", Num(*span)), ("pairs", Num(*pairs as f32))],
        ),
        Feature::Tail {
            length,
            thickness,
            tip,
        } => one(
            format!("Tail.{tip:?}"),
            vec![("length", Num(*length)), ("thickness", Num(*thickness))],
        ),
        Feature::Armour { on, tint } => on
            .iter()
            .map(|p| (format!("Armour.{p:?}"), vec![("tint", T(*tint))]))
            .collect(),
        Feature::Weapon { kind, hand, size } => {
            let (i, s) = if *hand == Hand::Left {
                (0.0, 1.0)
            } else {
                (1.0, -1.0)
            };
            one(
                format!("Weapon.{kind:?}"),
                vec![("i", Num(i)), ("s", Num(s)), ("size", Num(*size))],
            )
        }
        Feature::Claws { on, length } => {
            one(format!("Claws.{on:?}"), vec![("length", Num(*length))])
        }
        Feature::Spikes { at, count } => one(
            format!("Spikes.{at:?}"),
            vec![("count", Num(*count as f32))],
        ),
        Feature::Ears { kind, size } => one(format!("Ears.{kind:?}"), vec![("size", Num(*size))]),
        Feature::Snout { length } => one("Snout".into(), vec![("length", Num(*length))]),
        Feature::Halo => one("Halo".into(), Vec::new()),
        Feature::Mane { tint } => one("Mane".into(), vec![("tint", T(*tint))]),
        Feature::Cape { tint } => one("Cape".into(), vec![("tint", T(*tint))]),
        Feature::Pelt { tint, stripes } => one(
            "Pelt".into(),
            vec![("tint", T(*tint)), ("stripes", T(*stripes))],
        ),
    }
}

/// One of every part, every kind of each (for trying the files).
pub fn every_feature() -> Vec<Feature> {
    let mut all = Vec::new();
    for at in [HornAt::Head, HornAt::Nose, HornAt::Sides] {
        all.push(Feature::Horns {
            count: 2,
            length: 0.3,
            at,
        });
    }
    for kind in [
        WingKind::Feather,
        WingKind::Bat,
        WingKind::Insect,
        WingKind::Mech,
    ] {
        all.push(Feature::Wings {
            kind,
            span: 0.8,
            pairs: 2,
        });
    }
    for tip in [
        TailTip::Plain,
        TailTip::Spike,
        TailTip::Fin,
        TailTip::Flame,
        TailTip::Club,
    ] {
        all.push(Feature::Tail {
            length: 1.0,
            thickness: 0.2,
            tip,
        });
    }
    all.push(Feature::Armour {
        on: vec![
            Plate::Helmet,
            Plate::Chest,
            Plate::Shoulders,
            Plate::Arms,
            Plate::Legs,
        ],
        tint: Tint::Detail,
    });
    for kind in [
        WeaponKind::Sword,
        WeaponKind::Lance,
        WeaponKind::Hammer,
        WeaponKind::Axe,
        WeaponKind::Shield,
        WeaponKind::Cannon,
        WeaponKind::Staff,
        WeaponKind::Claw,
    ] {
        for hand in [Hand::Left, Hand::Right] {
            all.push(Feature::Weapon {
                kind,
                hand,
                size: 1.0,
            });
        }
    }
    for on in [Limbs::Hands, Limbs::Feet, Limbs::All] {
        all.push(Feature::Claws { on, length: 0.15 });
    }
    for at in [SpikesAt::Back, SpikesAt::Shoulders, SpikesAt::Head] {
        all.push(Feature::Spikes { at, count: 3 });
    }
    for kind in [
        EarKind::Pointed,
        EarKind::Long,
        EarKind::Round,
        EarKind::Fins,
    ] {
        all.push(Feature::Ears { kind, size: 1.0 });
    }
    all.push(Feature::Snout { length: 0.3 });
    all.push(Feature::Halo);
    all.push(Feature::Mane { tint: Tint::Accent });
    all.push(Feature::Cape { tint: Tint::Accent });
    all.push(Feature::Pelt {
        tint: Tint::Accent,
        stripes: Tint::Body,
    });
    all
}

/// Steps being carried out on a figure.
struct Run<'a> {
    kit: &'a mut Kit,
    routines: &'a BTreeMap<String, Vec<Step>>,
    /// The names given, innermost last.
    names: Vec<(String, Value)>,
    /// The side of the pair being laid out (0 left, 1 right).
    side: Option<usize>,
    /// How deep in routines.
    depth: usize,
}

impl Names for Run<'_> {
    fn get(&self, name: &str) -> Option<Value> {
        self.names
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| *v)
    }

    fn has_bone(&self, joint: Joint) -> bool {
        self.kit.bones.iter().any(|b| b.joint == joint)
    }
}

impl<'a> Run<'a> {
    fn new(
        kit: &'a mut Kit,
        routines: &'a BTreeMap<String, Vec<Step>>,
        spec: &FigureSpec,
    ) -> Run<'a> {
        let b = spec.build;
        let mut run = Run {
            kit,
            routines,
            names: Vec::new(),
            side: None,
            depth: 0,
        };
        for (n, v) in [
            ("height", b.height),
            ("bulk", b.bulk),
            ("head_size", b.head),
            ("arms", b.arms),
            ("legs", b.legs),
        ] {
            run.define(n, Value::Num(v));
        }
        let blocks = if run.kit.machine { 1.0 } else { 0.0 };
        run.define("blocks", Value::Num(blocks));
        run.define("plan", Value::Plan(spec.plan));
        run
    }

    /// The names a part reads of where the plan put things.
    fn part_names(&mut self) {
        let (head, head_r) = self.kit.head;
        let (chest, chest_w) = self.kit.chest;
        self.define("head", Value::Vec(head));
        self.define("head_r", Value::Num(head_r));
        self.define("chest", Value::Vec(chest));
        self.define("chest_w", Value::Num(chest_w));
        self.define("wing_root", Value::Vec(self.kit.wing_root));
        self.define("back_n", Value::Num(self.kit.back.len() as f32));
    }

    fn define(&mut self, name: &str, v: Value) {
        self.names.push((name.to_string(), v));
    }

    fn assign(&mut self, name: &str, v: Value) {
        match self.names.iter_mut().rev().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = v,
            None => self.define(name, v),
        }
    }

    fn joint(&self, j: &JointRef) -> Result<Joint, String> {
        match j {
            JointRef::Fixed(j) => Ok(*j),
            JointRef::Mirror(l, r) => match self.side {
                Some(0) => Ok(*l),
                Some(_) => Ok(*r),
                None => Err(format!("{l:?}/{r:?} written with * outside a Pair")),
            },
            JointRef::Named(n) => match self.get(n) {
                Some(Value::Joint(j)) => Ok(j),
                Some(_) => Err(format!("`{n}` is not a joint")),
                None => Err(format!("`{n}` is not a name here")),
            },
        }
    }

    fn side(&self) -> Result<usize, String> {
        self.side
            .ok_or_else(|| "a hand, shoulder or forearm outside a Pair".to_string())
    }

    fn steps(&mut self, steps: &[Step]) -> Result<(), String> {
        steps.iter().try_for_each(|s| self.step(s))
    }

    /// Runs `steps` with names of their own, forgotten after.
    fn scoped(&mut self, names: Vec<(String, Value)>, steps: &[Step]) -> Result<(), String> {
        let mark = self.names.len();
        self.names.extend(names);
        let done = self.steps(steps);
        self.names.truncate(mark);
        done
    }

    fn step(&mut self, step: &Step) -> Result<(), String> {
        match step {
            Step::Let(name, f) => {
                let v = f.eval(self)?;
                self.assign(name, v);
            }
            Step::Bone { joint, parent, at } => {
                let (j, p, at) = (self.joint(joint)?, self.joint(parent)?, at.vec(self)?);
                self.kit.bone(j, p, at);
            }
            Step::Blob {
                joint,
                at,
                size,
                tint,
            } => {
                let j = self.joint(joint)?;
                let (at, size, tint) = (at.vec(self)?, size.vec(self)?, tint.tint(self)?);
                self.kit.blob(j, at, size, tint);
            }
            Step::Limb {
                joint,
                r,
                len,
                tint,
            } => {
                let j = self.joint(joint)?;
                let (r, len, tint) = (r.num(self)?, len.num(self)?, tint.tint(self)?);
                self.kit.limb(j, r, len, tint);
            }
            Step::LimbAlong {
                joint,
                r,
                len,
                dir,
                tint,
            } => {
                let j = self.joint(joint)?;
                let (r, len) = (r.num(self)?, len.num(self)?);
                let (dir, tint) = (dir.vec(self)?, tint.tint(self)?);
                self.kit.limb_along(j, r, len, dir, tint);
            }
            Step::Part {
                joint,
                shape,
                at,
                tint,
                rot,
                scale,
                finish,
            } => {
                let j = self.joint(joint)?;
                let shape = match shape {
                    ShapeOf::Ball(r) => Shape::Ball(r.num(self)?),
                    ShapeOf::Block(s) => Shape::Block(s.vec(self)?),
                    ShapeOf::Capsule(r, l) => Shape::Capsule(r.num(self)?, l.num(self)?),
                    ShapeOf::Cone(r, h) => Shape::Cone(r.num(self)?, h.num(self)?),
                    ShapeOf::Cylinder(r, h) => Shape::Cylinder(r.num(self)?, h.num(self)?),
                    ShapeOf::Torus(t, r) => Shape::Torus(t.num(self)?, r.num(self)?),
                };
                let mut part = Part::new(j, shape, at.vec(self)?, tint.tint(self)?);
                if let Some(r) = rot {
                    part = part.rot(r.rot(self)?);
                }
                if let Some(s) = scale {
                    part = part.scaled(s.vec(self)?);
                }
                if let Some(f) = finish {
                    part = part.finish(*f);
                }
                self.kit.add(part);
            }
            Step::Eyes { at, r, wide } => {
                let (at, r, wide) = (at.vec(self)?, r.num(self)?, wide.num(self)?);
                self.kit.eyes(at, r, wide);
            }
            Step::Head { at, r } => self.kit.head = (at.vec(self)?, r.num(self)?),
            Step::Snout { at } => self.kit.snout = Some(at.vec(self)?),
            Step::WingRoot { at } => self.kit.wing_root = at.vec(self)?,
            Step::TailRoot { joint, at } => {
                self.kit.tail_root = Some((self.joint(joint)?, at.vec(self)?));
            }
            Step::Chest { at, w } => self.kit.chest = (at.vec(self)?, w.num(self)?),
            Step::Hand { joint, at } => {
                let slot = (self.joint(joint)?, at.vec(self)?);
                self.kit.hands[self.side()?] = Some(slot);
            }
            Step::Shoulder { joint, at } => {
                let slot = (self.joint(joint)?, at.vec(self)?);
                self.kit.shoulders[self.side()?] = Some(slot);
            }
            Step::Forearm { joint, at, len } => {
                let slot = (self.joint(joint)?, at.vec(self)?, len.num(self)?);
                self.kit.forearms[self.side()?] = Some(slot);
            }
            Step::Foot { joint, at } => {
                let slot = (self.joint(joint)?, at.vec(self)?);
                self.kit.feet.push(slot);
            }
            Step::Shin { joint, at, len } => {
                let slot = (self.joint(joint)?, at.vec(self)?, len.num(self)?);
                self.kit.shins.push(slot);
            }
            Step::Back { joint, at, dir } => {
                let slot = (self.joint(joint)?, at.vec(self)?, dir.vec(self)?);
                self.kit.back.push(slot);
            }
            Step::Pair(steps) => {
                let outer = self.side;
                for (side, s) in [(0usize, 1.0), (1, -1.0)] {
                    self.side = Some(side);
                    let names = vec![
                        ("s".to_string(), Value::Num(s)),
                        ("i".to_string(), Value::Num(side as f32)),
                    ];
                    let done = self.scoped(names, steps);
                    self.side = outer;
                    done?;
                }
            }
            Step::Repeat { count, name, steps } => {
                let n = count.num(self)?;
                if !(0.0..=MOST_REPEATS).contains(&n) {
                    return Err(format!("Repeat `{count}` = {n}: from 0 to {MOST_REPEATS}"));
                }
                let name = name.as_deref().unwrap_or("i");
                for i in 0..n as usize {
                    self.scoped(vec![(name.to_string(), Value::Num(i as f32))], steps)?;
                }
            }
            Step::Each {
                name,
                values,
                steps,
            } => {
                for (i, v) in values.iter().enumerate() {
                    let v = v.eval(self)?;
                    let names = vec![(name.clone(), v), ("i".to_string(), Value::Num(i as f32))];
                    self.scoped(names, steps)?;
                }
            }
            Step::If {
                when,
                then,
                otherwise,
            } => {
                let go = when.num(self)? != 0.0;
                self.scoped(Vec::new(), if go { then } else { otherwise })?;
            }
            Step::With {
                slot,
                index,
                names,
                then,
            } => {
                let index = match index {
                    Some(f) => Some(f.num(self)?),
                    None => None,
                };
                if let Some(values) = self.slot_at(*slot, index)? {
                    let named = bind(names, values, *slot)?;
                    self.scoped(named, then)?;
                }
            }
            Step::ForEach { slot, names, steps } => {
                for (i, values) in self.slot_all(*slot).into_iter().enumerate() {
                    let mut named = bind(names, values, *slot)?;
                    named.push(("i".to_string(), Value::Num(i as f32)));
                    let s = if i == 0 { 1.0 } else { -1.0 };
                    named.push(("s".to_string(), Value::Num(s)));
                    self.scoped(named, steps)?;
                }
            }
            Step::Call(name) => {
                let Some(steps) = self.routines.get(name) else {
                    return Err(format!("no routine `{name}`"));
                };
                if self.depth >= DEEPEST_CALL {
                    return Err(format!("`{name}`: routines call routines too deep"));
                }
                self.depth += 1;
                let done = self.steps(steps);
                self.depth -= 1;
                done.map_err(|e| format!("in `{name}`: {e}"))?;
            }
        }
        Ok(())
    }

    /// The values of every slot of a kind the figure has, in order.
    fn slot_all(&self, slot: Slot) -> Vec<Vec<Value>> {
        let k = &self.kit;
        use Value::{Joint as J, Num as N, Vec as V};
        match slot {
            Slot::Hand => k
                .hands
                .iter()
                .flatten()
                .map(|&(j, a)| vec![J(j), V(a)])
                .collect(),
            Slot::Shoulder => k
                .shoulders
                .iter()
                .flatten()
                .map(|&(j, a)| vec![J(j), V(a)])
                .collect(),
            Slot::Forearm => k
                .forearms
                .iter()
                .flatten()
                .map(|&(j, a, l)| vec![J(j), V(a), N(l)])
                .collect(),
            Slot::Arm => k
                .shoulders
                .iter()
                .zip(&k.forearms)
                .filter_map(|(s, f)| match (s, f) {
                    (Some((j, top)), Some((_, _, len))) => Some(vec![J(*j), V(*top), N(*len)]),
                    _ => None,
                })
                .collect(),
            Slot::Foot => k.feet.iter().map(|&(j, a)| vec![J(j), V(a)]).collect(),
            Slot::Shin => k
                .shins
                .iter()
                .map(|&(j, a, l)| vec![J(j), V(a), N(l)])
                .collect(),
            Slot::Back => k
                .back
                .iter()
                .map(|&(j, a, d)| vec![J(j), V(a), V(d)])
                .collect(),
            Slot::Snout => k.snout.iter().map(|&a| vec![V(a)]).collect(),
            Slot::TailRoot => k.tail_root.iter().map(|&(j, a)| vec![J(j), V(a)]).collect(),
        }
    }

    /// One slot's values: a hand, shoulder or forearm by side (0 left, 1
    /// right), a foot, shin or back point by its place in the list, the
    /// snout or tail root with no index.
    fn slot_at(&self, slot: Slot, index: Option<f32>) -> Result<Option<Vec<Value>>, String> {
        use Value::{Joint as J, Num as N, Vec as V};
        let k = &self.kit;
        let Some(i) = index else {
            return match slot {
                Slot::Snout | Slot::TailRoot => Ok(self.slot_all(slot).into_iter().next()),
                _ => Err(format!("With {slot:?} needs an index")),
            };
        };
        if i < 0.0 || i.fract() != 0.0 {
            return Err(format!(
                "With {slot:?} at {i}: an index is a whole number from 0"
            ));
        }
        let i = i as usize;
        Ok(match slot {
            Slot::Hand => k
                .hands
                .get(i)
                .copied()
                .flatten()
                .map(|(j, a)| vec![J(j), V(a)]),
            Slot::Shoulder => k
                .shoulders
                .get(i)
                .copied()
                .flatten()
                .map(|(j, a)| vec![J(j), V(a)]),
            Slot::Forearm => k
                .forearms
                .get(i)
                .copied()
                .flatten()
                .map(|(j, a, l)| vec![J(j), V(a), N(l)]),
            Slot::Arm | Slot::Snout | Slot::TailRoot => {
                return Err(format!("With {slot:?} takes no index"));
            }
            Slot::Foot | Slot::Shin | Slot::Back => self.slot_all(slot).into_iter().nth(i),
        })
    }
}

/// `names` paired with a slot's `values`, which must be as many.
fn bind(names: &[String], values: Vec<Value>, slot: Slot) -> Result<Vec<(String, Value)>, String> {
    if names.len() != values.len() {
        return Err(format!(
            "{slot:?} gives {} values, and {} names take them",
            values.len(),
            names.len()
        ));
    }
    Ok(names.iter().cloned().zip(values).collect())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// The shipped files with `name`'s text replaced.
    fn with(name: &str, text: &str) -> Result<Bodies, String> {
        let files: Vec<(&str, &str)> = EMBEDDED_BODIES
            .iter()
            .map(|&(f, t)| if f.ends_with(name) { (f, text) } else { (f, t) })
            .collect();
        Bodies::parse(&files)
    }

    fn parts() -> &'static str {
        EMBEDDED_BODIES
            .iter()
            .find(|(f, _)| f.ends_with("parts.ron"))
            .unwrap()
            .1
    }

    #[test]
    fn the_shipped_body_files_lay_out_every_plan_and_part() {
        let b = Bodies::parse(EMBEDDED_BODIES).unwrap();
        let used: BTreeSet<String> = every_feature()
            .iter()
            .flat_map(feature_calls)
            .map(|(k, _)| k)
            .collect();
        for k in b.parts.parts.keys() {
            assert!(used.contains(k), "{k}: no part has this key");
        }
        for k in &used {
            assert!(b.parts.parts.contains_key(k), "{k}: not in parts.ron");
        }
        assert!(b.blocks(Plan::Machine));
        assert!(!b.blocks(Plan::Biped));
    }

    #[test]
    fn a_broken_body_file_is_named_with_its_line_or_its_formula() {
        let e = with(
            "biped.ron",
            "(\n    steps: [\n        Bone(joint: \"Hips\",, \n",
        )
        .unwrap_err();
        assert!(e.starts_with("assets/bodies/biped.ron:3:"), "{e}");
        let e = with(
            "blob.ron",
            "(\n  steps: [\n    Let(\"r\", \"0.38 * * bulk\"),\n  ],\n)",
        )
        .unwrap_err();
        assert!(e.starts_with("assets/bodies/blob.ron:3:"), "{e}");
        assert!(e.contains("`0.38 * * bulk`"), "{e}");
        let e = with(
            "blob.ron",
            r#"(steps: [Bone(joint: "Elbow", parent: "Mover", at: "ZERO")])"#,
        )
        .unwrap_err();
        assert!(e.contains("`Elbow` is not a joint"), "{e}");
        let e = with(
            "blob.ron",
            r#"(steps: [Bone(joint: "Hips", parnt: "Mover", at: "ZERO")])"#,
        )
        .unwrap_err();
        assert!(e.starts_with("assets/bodies/blob.ron:1:"), "{e}");
        assert!(e.contains("parnt"), "{e}");
        // What only laying a figure out finds: the file and the formula.
        let e = with("blob.ron", r#"(steps: [Let("r", "0.38 * bulky")])"#).unwrap_err();
        assert!(e.starts_with("assets/bodies/blob.ron: "), "{e}");
        assert!(e.contains("`bulky` is not a name here"), "{e}");
        let halo = parts().replace("head + Y * head_r * 1.45", "head + head_r * 1.45");
        let e = with("parts.ron", &halo).unwrap_err();
        assert!(e.contains("parts.ron: Halo: "), "{e}");
        assert!(e.contains("Add of a vector and a number"), "{e}");
        let e = with("parts.ron", &parts().replace("\"Halo\":", "\"Halos\":")).unwrap_err();
        assert!(e.contains("no part `Halo`"), "{e}");
        let e = with("blob.ron", r#"(steps: [Hand(joint: "Hips", at: "ZERO")])"#).unwrap_err();
        assert!(e.contains("outside a Pair"), "{e}");
        let e = with("blob.ron", r#"(steps: [Repeat(count: "1000", steps: [])])"#).unwrap_err();
        assert!(e.contains("from 0 to 64"), "{e}");
        let looped = parts()
            .replace("\"Halo\": [", "\"Halo\": [Call(\"loop\"),")
            .replace("routines: {", "routines: { \"loop\": [Call(\"loop\")],");
        let e = with("parts.ron", &looped).unwrap_err();
        assert!(e.contains("too deep"), "{e}");
        let e = with("blob.ron", "(like: Some(Machine))").unwrap_err();
        assert!(e.contains("must name a plan with steps of its own"), "{e}");
        let files: Vec<(&str, &str)> = EMBEDDED_BODIES
            .iter()
            .copied()
            .filter(|(f, _)| !f.ends_with("serpent.ron"))
            .collect();
        let e = Bodies::parse(&files).unwrap_err();
        assert!(e.contains("no body file for the Serpent plan"), "{e}");
    }
}
