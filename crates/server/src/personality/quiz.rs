//! The 20 questions, in the spec's order of topics, each with three options.
//! Every option moves some of the five traits by -2 to +2; the model
//! (`model.rs`) adds the moves up. The web app shows the questions as the
//! server serves them, so the text and the scoring cannot drift apart.

use serde::Serialize;
use utoipa::ToSchema;

/// The traits, in this order in every effect array.
pub const TRAITS: [Trait; 5] = [
    Trait::Energy,
    Trait::Curiosity,
    Trait::Structure,
    Trait::Harmony,
    Trait::Calm,
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Trait {
    /// Drawn to people and action (extraversion).
    Energy,
    /// Drawn to new ideas and experiences (openness).
    Curiosity,
    /// Plans, order and follow-through (conscientiousness).
    Structure,
    /// Warmth and cooperation (agreeableness).
    Harmony,
    /// Steadiness under pressure (emotional stability).
    Calm,
}

impl Trait {
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Energy => "Social energy",
            Self::Curiosity => "Curiosity",
            Self::Structure => "Structure",
            Self::Harmony => "Harmony",
            Self::Calm => "Calm",
        }
    }
}

pub struct QuizOption {
    pub value: &'static str,
    pub label: &'static str,
    /// Energy, curiosity, structure, harmony, calm.
    pub effects: [i8; 5],
}

pub struct Question {
    pub topic: &'static str,
    pub text: &'static str,
    pub options: [QuizOption; 3],
}

const fn option(value: &'static str, label: &'static str, effects: [i8; 5]) -> QuizOption {
    QuizOption {
        value,
        label,
        effects,
    }
}

pub const QUESTIONS: [Question; 20] = [
    Question {
        topic: "Recharging",
        text: "After a long week, how do you recharge?",
        options: [
            option("friends", "Out with a group of friends", [2, 0, 0, 0, 0]),
            option("quiet", "A quiet evening on my own", [-2, 0, 0, 0, 1]),
            option("new", "Trying something I've never done", [1, 2, 0, 0, 0]),
        ],
    },
    Question {
        topic: "Problem solving",
        text: "Faced with a tricky problem, you…",
        options: [
            option(
                "steps",
                "Break it into steps and work through them",
                [0, 0, 2, 0, 0],
            ),
            option("ideas", "Brainstorm unusual ideas", [0, 2, 0, 0, 0]),
            option("talk", "Talk it over with someone", [1, 0, 0, 1, 0]),
        ],
    },
    Question {
        topic: "Group role",
        text: "In a group project you usually…",
        options: [
            option("lead", "Take the lead", [2, 0, 1, 0, 0]),
            option("ideas", "Bring the ideas", [0, 2, 0, 0, 0]),
            option(
                "support",
                "Keep everyone on track and happy",
                [0, 0, 0, 2, 0],
            ),
        ],
    },
    Question {
        topic: "Organization",
        text: "Your desk or room is usually…",
        options: [
            option("tidy", "Tidy, everything in its place", [0, 0, 2, 0, 0]),
            option(
                "creative",
                "Creative chaos that I can find things in",
                [0, 1, -1, 0, 0],
            ),
            option(
                "relaxed",
                "Lived-in, and that doesn't bother me",
                [0, 0, -1, 0, 1],
            ),
        ],
    },
    Question {
        topic: "Learning",
        text: "You learn best by…",
        options: [
            option("doing", "Doing it hands-on", [1, 1, 0, 0, 0]),
            option("reading", "Reading and taking notes", [0, 0, 2, 0, 0]),
            option("discussing", "Discussing it with others", [1, 0, 0, 1, 0]),
        ],
    },
    Question {
        topic: "Stress",
        text: "When stress builds up, you…",
        options: [
            option(
                "steady",
                "Stay calm and take one thing at a time",
                [0, 0, 1, 0, 2],
            ),
            option(
                "share",
                "Talk it through with someone close",
                [1, 0, 0, 1, -1],
            ),
            option(
                "distract",
                "Throw myself into something else",
                [0, 1, 0, 0, -1],
            ),
        ],
    },
    Question {
        topic: "Weekend",
        text: "Your ideal weekend is…",
        options: [
            option("party", "A party or a festival", [2, 0, 0, 0, 0]),
            option(
                "planned",
                "Planned in advance, every hour well used",
                [0, 0, 2, 0, 0],
            ),
            option(
                "spontaneous",
                "Unplanned: see where it goes",
                [0, 2, -1, 0, 0],
            ),
        ],
    },
    Question {
        topic: "Conversation",
        text: "In a conversation you are more often…",
        options: [
            option("stories", "The one telling the stories", [2, 0, 0, 0, 0]),
            option(
                "listening",
                "The one listening and asking questions",
                [-1, 0, 0, 2, 0],
            ),
            option("debating", "The one debating ideas", [0, 1, 0, -1, 1]),
        ],
    },
    Question {
        topic: "Decisions",
        text: "For a big decision, you go with…",
        options: [
            option(
                "facts",
                "The facts and a list of pros and cons",
                [0, 0, 2, 0, 1],
            ),
            option("gut", "My gut feeling", [1, 1, 0, 0, 0]),
            option("trusted", "What the people I trust think", [0, 0, 0, 2, 0]),
        ],
    },
    Question {
        topic: "Deadlines",
        text: "With a deadline two weeks away, you…",
        options: [
            option(
                "early",
                "Start right away and finish early",
                [0, 0, 2, 0, 0],
            ),
            option("paced", "Pace the work evenly", [0, 0, 1, 0, 1]),
            option(
                "last",
                "Do my best work in the last few days",
                [1, 0, -2, 0, 0],
            ),
        ],
    },
    Question {
        topic: "Conflict",
        text: "When a disagreement starts, you…",
        options: [
            option("head_on", "Address it head-on", [1, 0, 0, -1, 1]),
            option("middle", "Look for the middle ground", [0, 0, 0, 2, 0]),
            option("cool", "Step back and let it cool down", [-1, 0, 0, 1, 0]),
        ],
    },
    Question {
        topic: "Creativity",
        text: "Which sounds most like you?",
        options: [
            option("making", "I'm always making something", [0, 2, 0, 0, 0]),
            option(
                "improving",
                "I like making things work better",
                [0, 1, 1, 0, 0],
            ),
            option(
                "enjoying",
                "I'd rather enjoy what others make",
                [0, 0, 0, 1, 1],
            ),
        ],
    },
    Question {
        topic: "Energy",
        text: "When is your energy highest?",
        options: [
            option("crowd", "Around lots of people", [2, 0, 0, 0, 0]),
            option("focus", "Deep in a task on my own", [-1, 0, 1, 0, 0]),
            option("outdoors", "Outdoors and on the move", [0, 1, 0, 0, 1]),
        ],
    },
    Question {
        topic: "Teamwork",
        text: "What makes a great team?",
        options: [
            option("trust", "Trust and kindness", [0, 0, 0, 2, 0]),
            option("clarity", "Clear roles and goals", [0, 0, 2, 0, 0]),
            option("boldness", "Energy and bold ideas", [1, 1, 0, 0, 0]),
        ],
    },
    Question {
        topic: "Change",
        text: "A sudden change of plans makes you…",
        options: [
            option("excited", "Excited: something new!", [0, 2, 0, 0, 1]),
            option("adapt", "Adapt after a moment", [0, 0, 0, 0, 1]),
            option(
                "uneasy",
                "Uneasy until there's a new plan",
                [0, 0, 1, 0, -2],
            ),
        ],
    },
    Question {
        topic: "Communication",
        text: "You prefer to say things…",
        options: [
            option("direct", "Directly, even if it's blunt", [1, 0, 0, -1, 1]),
            option("tactful", "Gently and tactfully", [0, 0, 0, 2, 0]),
            option(
                "written",
                "In writing, after thinking it through",
                [-1, 0, 1, 0, 0],
            ),
        ],
    },
    Question {
        topic: "Feedback",
        text: "Critical feedback on your work…",
        options: [
            option(
                "welcome",
                "Is welcome: it helps me improve",
                [0, 1, 0, 0, 2],
            ),
            option("stings", "Stings a bit, but I use it", [0, 0, 1, 0, -1]),
            option("discuss", "Starts a good discussion", [1, 0, 0, 1, 0]),
        ],
    },
    Question {
        topic: "Risk",
        text: "Offered a risky opportunity, you…",
        options: [
            option("jump", "Jump in", [1, 2, 0, 0, 0]),
            option("research", "Research it thoroughly first", [0, 0, 2, 0, 0]),
            option("pass", "Pass: steady is better", [0, -1, 1, 0, 0]),
        ],
    },
    Question {
        topic: "Prioritizing",
        text: "With too much to do, you…",
        options: [
            option("rank", "Make a list and rank it", [0, 0, 2, 0, 0]),
            option(
                "loudest",
                "Handle whatever is loudest first",
                [1, 0, 0, 0, -1],
            ),
            option("share", "Ask for help and share the load", [1, 0, 0, 1, 0]),
        ],
    },
    Question {
        topic: "Work environment",
        text: "Your ideal place to work is…",
        options: [
            option("buzz", "A busy, social office", [2, 0, 0, 0, 0]),
            option("quiet", "A quiet, orderly space", [-1, 0, 1, 0, 0]),
            option(
                "anywhere",
                "Anywhere new: cafés, trains, parks",
                [0, 2, 0, 0, 0],
            ),
        ],
    },
];

/// A question as the web app shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuizQuestion {
    pub index: usize,
    pub topic: &'static str,
    pub question: &'static str,
    pub options: Vec<QuizQuestionOption>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct QuizQuestionOption {
    /// What `answers` carries for this option.
    pub value: &'static str,
    pub label: &'static str,
}

pub fn public_questions() -> Vec<QuizQuestion> {
    QUESTIONS
        .iter()
        .enumerate()
        .map(|(index, question)| QuizQuestion {
            index,
            topic: question.topic,
            question: question.text,
            options: question
                .options
                .iter()
                .map(|option| QuizQuestionOption {
                    value: option.value,
                    label: option.label,
                })
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_questions_in_the_spec_order_of_topics() {
        let topics: Vec<&str> = QUESTIONS.iter().map(|q| q.topic).collect();
        assert_eq!(
            topics,
            [
                "Recharging",
                "Problem solving",
                "Group role",
                "Organization",
                "Learning",
                "Stress",
                "Weekend",
                "Conversation",
                "Decisions",
                "Deadlines",
                "Conflict",
                "Creativity",
                "Energy",
                "Teamwork",
                "Change",
                "Communication",
                "Feedback",
                "Risk",
                "Prioritizing",
                "Work environment",
            ]
        );
    }

    #[test]
    fn option_values_are_distinct_within_a_question_and_every_trait_can_move() {
        for question in &QUESTIONS {
            let mut values: Vec<&str> = question.options.iter().map(|o| o.value).collect();
            values.sort_unstable();
            values.dedup();
            assert_eq!(values.len(), 3, "{}", question.topic);
        }
        for t in TRAITS {
            let spread: i32 = QUESTIONS
                .iter()
                .map(|q| {
                    let e: Vec<i32> = q
                        .options
                        .iter()
                        .map(|o| i32::from(o.effects[t.index()]))
                        .collect();
                    e.iter().max().unwrap() - e.iter().min().unwrap()
                })
                .sum();
            assert!(spread >= 10, "{t:?} can hardly move: {spread}");
        }
    }
}
