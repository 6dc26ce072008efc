//! The personality model: deterministic, documented, for fun.
//!
//! 1. Each of the 20 answers moves the five traits by its option's effects
//!    (`quiz.rs`); a trait's sum is scaled to 0–100 between the lowest and
//!    the highest sum the quiz allows for it.
//! 2. The type is named from the two leading traits (ties go to the earlier
//!    trait in `TRAITS`): ten pairs, ten types.
//! 3. The score is 60 + 0.4 × the mean of the two leading traits, rounded:
//!    60 to 100, higher the more clearly the type shows.
//! 4. The basic analysis is the type's portrait and its leading trait; the
//!    detailed one adds every trait's score and level, strengths, how the
//!    person works with others, what drains them, growth areas and the
//!    surroundings that suit them.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use super::quiz::{QUESTIONS, TRAITS, Trait};

/// The answers, one per question: question index to option value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answers([usize; 20]);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswersError {
    #[error("Please answer all 20 questions ({0} answered).")]
    Incomplete(usize),
    #[error("Question {0} does not exist: questions are numbered 0 to 19.")]
    UnknownQuestion(String),
    #[error("'{value}' is not an option of question {index}.")]
    UnknownOption { index: usize, value: String },
}

impl Answers {
    /// Parses `{"0": "friends", "1": "steps", …}`: all 20 questions, each a
    /// known option.
    pub fn parse(raw: &BTreeMap<String, String>) -> Result<Self, AnswersError> {
        let mut chosen: [Option<usize>; 20] = [None; 20];
        for (key, value) in raw {
            let index: usize = key
                .trim()
                .parse()
                .ok()
                .filter(|i| *i < QUESTIONS.len())
                .ok_or_else(|| AnswersError::UnknownQuestion(key.clone()))?;
            let option = QUESTIONS[index]
                .options
                .iter()
                .position(|o| o.value == value)
                .ok_or_else(|| AnswersError::UnknownOption {
                    index,
                    value: value.clone(),
                })?;
            chosen[index] = Some(option);
        }
        let answered = chosen.iter().flatten().count();
        if answered < QUESTIONS.len() {
            return Err(AnswersError::Incomplete(answered));
        }
        Ok(Self(chosen.map(|o| o.expect("all 20 answered"))))
    }

    /// The map form the database keeps and the API returns.
    pub fn to_map(&self) -> BTreeMap<String, String> {
        self.0
            .iter()
            .enumerate()
            .map(|(i, &o)| (i.to_string(), QUESTIONS[i].options[o].value.to_owned()))
            .collect()
    }
}

/// One trait's result.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct TraitScore {
    #[serde(rename = "trait")]
    pub name: Trait,
    pub label: &'static str,
    /// 0 to 100.
    pub score: u8,
}

/// The whole result.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    pub traits: Vec<TraitScore>,
    pub score: u8,
    pub personality_type: &'static str,
    lead: [Trait; 2],
}

fn bounds(t: Trait) -> (i32, i32) {
    QUESTIONS.iter().fold((0, 0), |(low, high), q| {
        let effects = q.options.iter().map(|o| i32::from(o.effects[t.index()]));
        (
            low + effects.clone().min().unwrap_or(0),
            high + effects.max().unwrap_or(0),
        )
    })
}

impl Profile {
    /// The trait that leads (the one a basic result shows).
    pub fn leading_trait(&self) -> TraitScore {
        let lead = self.lead[0];
        self.traits
            .iter()
            .find(|t| t.name == lead)
            .cloned()
            .expect("the lead is one of the traits")
    }
}

pub fn profile(answers: &Answers) -> Profile {
    let traits: Vec<TraitScore> = TRAITS
        .iter()
        .map(|&t| {
            let sum: i32 = answers
                .0
                .iter()
                .enumerate()
                .map(|(q, &o)| i32::from(QUESTIONS[q].options[o].effects[t.index()]))
                .sum();
            let (low, high) = bounds(t);
            let scaled = f64::from(sum - low) * 100.0 / f64::from(high - low);
            TraitScore {
                name: t,
                label: t.label(),
                score: scaled.round().clamp(0.0, 100.0) as u8,
            }
        })
        .collect();
    let mut order: Vec<&TraitScore> = traits.iter().collect();
    // Stable: on a tie the earlier trait leads.
    order.sort_by_key(|t| std::cmp::Reverse(t.score));
    let lead = [order[0].name, order[1].name];
    let mean = (f64::from(order[0].score) + f64::from(order[1].score)) / 2.0;
    let score = (60.0 + 0.4 * mean).round() as u8;
    Profile {
        personality_type: type_name(lead),
        traits,
        score,
        lead,
    }
}

fn type_name(lead: [Trait; 2]) -> &'static str {
    use Trait::*;
    let mut pair = lead;
    pair.sort_by_key(|t| t.index());
    match (pair[0], pair[1]) {
        (Energy, Curiosity) => "The Explorer",
        (Energy, Structure) => "The Leader",
        (Energy, Harmony) => "The Connector",
        (Energy, Calm) => "The Performer",
        (Curiosity, Structure) => "The Architect",
        (Curiosity, Harmony) => "The Idealist",
        (Curiosity, Calm) => "The Innovator",
        (Structure, Harmony) => "The Guardian",
        (Structure, Calm) => "The Strategist",
        (Harmony, Calm) => "The Peacemaker",
        _ => unreachable!("two different traits"),
    }
}

fn portrait(name: &str) -> &'static str {
    match name {
        "The Explorer" => "You chase new experiences and bring people along for the ride.",
        "The Leader" => "You set the direction and make sure things get done.",
        "The Connector" => "You bring people together and make everyone feel welcome.",
        "The Performer" => "You light up a room and stay cool when the spotlight is on you.",
        "The Architect" => "You dream up new ideas and then build them carefully.",
        "The Idealist" => "You imagine a better way and care deeply about the people it serves.",
        "The Innovator" => "You try bold ideas and keep your head when they wobble.",
        "The Guardian" => "You are dependable and kind: people know they can count on you.",
        "The Strategist" => "You think ahead, weigh the facts and stay steady under pressure.",
        _ => "You keep the peace, listen well and rarely lose your calm.",
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Level {
    Low,
    Middle,
    High,
}

fn level(score: u8) -> Level {
    match score {
        0..=33 => Level::Low,
        34..=66 => Level::Middle,
        _ => Level::High,
    }
}

fn trait_reading(t: Trait, score: u8) -> &'static str {
    use Level::*;
    use Trait::*;
    match (t, level(score)) {
        (Energy, High) => {
            "You draw energy from people and activity, and others notice when you walk in."
        }
        (Energy, Middle) => {
            "You enjoy company and your own time in equal measure, and switch between them easily."
        }
        (Energy, Low) => "You recharge alone and prefer a few deep conversations to a crowd.",
        (Curiosity, High) => "New ideas, places and ways of doing things pull you in.",
        (Curiosity, Middle) => "You like new things once they have shown their worth.",
        (Curiosity, Low) => "You trust what has been proven and enjoy doing familiar things well.",
        (Structure, High) => "You plan ahead, keep things in order and finish what you start.",
        (Structure, Middle) => "You plan what matters and leave room for the rest.",
        (Structure, Low) => "You go with the flow and do your best work when it is unscripted.",
        (Harmony, High) => "You put people first: warm, patient and quick to help.",
        (Harmony, Middle) => "You are friendly and fair, and you also stand your ground.",
        (Harmony, Low) => {
            "You say what you think and put the task ahead of keeping everyone comfortable."
        }
        (Calm, High) => "Pressure rarely rattles you; you stay level when others panic.",
        (Calm, Middle) => "You handle most pressure well and feel it when a lot piles up.",
        (Calm, Low) => "You feel things strongly, and stress shows; rest and routine help you.",
    }
}

fn strengths(t: Trait) -> [&'static str; 2] {
    match t {
        Trait::Energy => ["Getting people moving", "Speaking up and making contacts"],
        Trait::Curiosity => ["Original ideas", "Learning quickly and adapting"],
        Trait::Structure => ["Reliability", "Turning plans into results"],
        Trait::Harmony => ["Empathy", "Building trust in a team"],
        Trait::Calm => ["Steadiness under pressure", "Clear thinking in a crisis"],
    }
}

fn growth(t: Trait) -> &'static str {
    match t {
        Trait::Energy => "Share your ideas out loud earlier: people want to hear them.",
        Trait::Curiosity => "Try one unfamiliar thing a month; small experiments add up.",
        Trait::Structure => "A short list each morning keeps the important things from slipping.",
        Trait::Harmony => "Pause before a blunt reply: a kind word often gets you further.",
        Trait::Calm => "Plan recovery time after busy stretches, and ask for help sooner.",
    }
}

fn with_others(energy: u8, harmony: u8) -> &'static str {
    match (level(energy), level(harmony)) {
        (Level::High, Level::High) => {
            "In a team you are the warm centre: you start conversations, include the quiet ones and keep spirits up. Make sure your own opinion gets said too."
        }
        (Level::High, _) => {
            "In a team you drive the pace and say what you think. People follow your energy; check in with the quieter members so nobody is left behind."
        }
        (_, Level::High) => {
            "In a team you are the one people confide in. You listen, notice moods and smooth over friction, often without anyone noticing."
        }
        (Level::Low, Level::Low) => {
            "You work best with a clear task and room to do it your way. Your candour is an asset in reviews; a word of context helps it land."
        }
        _ => {
            "You are an easy team member: cooperative without losing your own view, social without needing the spotlight."
        }
    }
}

fn surroundings(curiosity: u8, structure: u8) -> &'static str {
    match (level(curiosity), level(structure)) {
        (Level::High, Level::High) => {
            "You thrive where new ideas are welcome and there is a plan to carry them out: product teams, research, design."
        }
        (Level::High, _) => {
            "You thrive with variety and freedom: new projects, travel, creative work."
        }
        (_, Level::High) => "You thrive with clear goals, good tools and a steady rhythm.",
        _ => "You thrive in a friendly place with some variety and not too many rules.",
    }
}

impl Profile {
    fn get(&self, t: Trait) -> u8 {
        self.traits[t.index()].score
    }

    /// The free result: the type's portrait and its leading trait.
    pub fn basic_analysis(&self) -> String {
        format!(
            "{}: {} Your strongest trait is {} ({}/100), followed by {} ({}/100).",
            self.personality_type,
            portrait(self.personality_type),
            self.lead[0].label().to_lowercase(),
            self.get(self.lead[0]),
            self.lead[1].label().to_lowercase(),
            self.get(self.lead[1]),
        )
    }

    /// The paid result: every trait, strengths, teamwork, growth and surroundings.
    pub fn detailed_analysis(&self) -> String {
        let mut text = format!(
            "{}: {}\n\nYour traits\n",
            self.personality_type,
            portrait(self.personality_type)
        );
        for t in &self.traits {
            text.push_str(&format!(
                "- {} {}/100: {}\n",
                t.label,
                t.score,
                trait_reading(t.name, t.score)
            ));
        }
        text.push_str("\nYour strengths\n");
        for s in strengths(self.lead[0])
            .iter()
            .chain(strengths(self.lead[1]).iter())
        {
            text.push_str(&format!("- {s}\n"));
        }
        text.push_str("\nHow you work with others\n");
        text.push_str(with_others(
            self.get(Trait::Energy),
            self.get(Trait::Harmony),
        ));
        let lowest = self
            .traits
            .iter()
            .rev()
            .min_by_key(|t| t.score)
            .expect("five traits");
        text.push_str(&format!(
            "\n\nRoom to grow: {} ({}/100)\n{}",
            lowest.label.to_lowercase(),
            lowest.score,
            growth(lowest.name)
        ));
        text.push_str("\n\nWhere you thrive\n");
        text.push_str(surroundings(
            self.get(Trait::Curiosity),
            self.get(Trait::Structure),
        ));
        text.push_str("\n\nFor fun only: this is not a psychological assessment.");
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(pick: impl Fn(usize) -> usize) -> Answers {
        let raw: BTreeMap<String, String> = (0..20)
            .map(|i| {
                (
                    i.to_string(),
                    QUESTIONS[i].options[pick(i)].value.to_owned(),
                )
            })
            .collect();
        Answers::parse(&raw).unwrap()
    }

    #[test]
    fn the_same_answers_always_give_the_same_result() {
        let a = answers(|i| i % 3);
        assert_eq!(profile(&a), profile(&a.clone()));
        assert_eq!(
            profile(&a).detailed_analysis(),
            profile(&a).detailed_analysis()
        );
        assert_eq!(Answers::parse(&a.to_map()).unwrap(), a, "round trip");
    }

    #[test]
    fn answers_that_favour_one_trait_lead_with_it_and_name_the_type_after_it() {
        let favour = |t: Trait| {
            answers(move |q| {
                (0..3)
                    .max_by_key(|&o| (QUESTIONS[q].options[o].effects[t.index()], -(o as i8)))
                    .unwrap()
            })
        };
        let outgoing = profile(&favour(Trait::Energy));
        assert_eq!(outgoing.lead[0], Trait::Energy, "{:?}", outgoing.traits);
        assert!(
            [
                "The Explorer",
                "The Leader",
                "The Connector",
                "The Performer"
            ]
            .contains(&outgoing.personality_type),
            "{}",
            outgoing.personality_type
        );
        let planner = profile(&favour(Trait::Structure));
        assert_eq!(planner.lead[0], Trait::Structure, "{:?}", planner.traits);
        for p in [&outgoing, &planner] {
            assert!((60..=100).contains(&p.score), "{}", p.score);
        }
    }

    #[test]
    fn each_trait_spans_0_to_100_over_the_quiz() {
        for t in TRAITS {
            let best = profile(&answers(|q| {
                (0..3)
                    .max_by_key(|&o| (QUESTIONS[q].options[o].effects[t.index()], -(o as i8)))
                    .unwrap()
            }));
            let worst = profile(&answers(|q| {
                (0..3)
                    .min_by_key(|&o| (QUESTIONS[q].options[o].effects[t.index()], o as i8))
                    .unwrap()
            }));
            assert_eq!(best.get(t), 100, "{t:?}");
            assert_eq!(worst.get(t), 0, "{t:?}");
        }
    }

    #[test]
    fn bad_answers_are_refused_clearly() {
        let mut raw = answers(|_| 1).to_map();
        raw.remove("7");
        assert_eq!(Answers::parse(&raw), Err(AnswersError::Incomplete(19)));
        raw.insert("7".into(), "dancing".into());
        assert_eq!(
            Answers::parse(&raw),
            Err(AnswersError::UnknownOption {
                index: 7,
                value: "dancing".into()
            })
        );
        raw.insert("7".into(), "listening".into());
        raw.insert("20".into(), "friends".into());
        assert_eq!(
            Answers::parse(&raw),
            Err(AnswersError::UnknownQuestion("20".into()))
        );
    }

    #[test]
    fn the_detailed_analysis_is_longer_and_names_every_trait() {
        let p = profile(&answers(|i| (i * 7) % 3));
        let basic = p.basic_analysis();
        let detailed = p.detailed_analysis();
        assert!(
            detailed.len() > 4 * basic.len(),
            "{} vs {}",
            detailed.len(),
            basic.len()
        );
        for t in TRAITS {
            assert!(
                detailed.contains(&format!("{} {}/100", t.label(), p.get(t))),
                "{detailed}"
            );
        }
        assert!(detailed.contains("How you work with others"));
        assert!(detailed.contains("Your strengths"));
    }

    #[test]
    fn ten_types_from_the_ten_pairs() {
        let mut names = std::collections::BTreeSet::new();
        for a in TRAITS {
            for b in TRAITS {
                if a != b {
                    names.insert(type_name([a, b]));
                }
            }
        }
        assert_eq!(names.len(), 10);
    }
}
