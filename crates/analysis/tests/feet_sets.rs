//! The feet check on the whole photo sets of issue 44 (testdata/feet/{train,heldout}:
//! real photos of bare feet; testdata/notfeet/{train,heldout}: other things, many of
//! them skin-like, with the hand photos), and the hands score on the same photos. The
//! check was built on the `train` folders only and measured once on the held-out third
//! (testdata/README.md says how it was split). The goals: at least 90% of the
//! held-out feet accepted (NOT met: 5 of 12, pinned below as a floor, see the crate's
//! README, "Feet: measured on photos it was not built on"), at least 95% of the rest
//! refused (met: 16 of 16), the coffee, the rocket and the cat always refused (met).
//! Crosswise: every feet photo is `no_hand` for the hands score, every hand photo
//! `not_feet` for the feet score (met).
mod common;
use common::*;
use prettyscore_analysis::{AnalysisError, analyze_feet, analyze_hands};

/// The photos of one folder, by file name.
fn photos(folder: &str) -> Vec<(String, Vec<u8>)> {
    let dir = testdata(folder);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{folder}: {e}"))
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".jpg"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let b = bytes(&format!("{folder}/{n}"));
            (n, b)
        })
        .collect()
}

/// Whether the feet score accepts a photo (any other error than `not_feet` fails).
fn feet_accepted(name: &str, photo: &[u8]) -> bool {
    match analyze_feet(photo) {
        Ok(r) => {
            assert!((7.0..=10.0).contains(&r.score), "{name}: {}", r.score);
            true
        }
        Err(AnalysisError::NotFeet) => false,
        Err(e) => panic!("{name}: {e:?}"),
    }
}

/// Whether the hands score accepts a photo (any other error than `no_hand` fails).
fn hand_accepted(name: &str, photo: &[u8]) -> bool {
    match analyze_hands(photo) {
        Ok(_) => true,
        Err(AnalysisError::NoHand) => false,
        Err(e) => panic!("{name}: {e:?}"),
    }
}

/// Accepted names of a set, after printing the set's line of the confusion table.
fn accepted(folder: &str, by: fn(&str, &[u8]) -> bool) -> (Vec<String>, usize) {
    let set = photos(folder);
    let yes: Vec<String> = set
        .iter()
        .filter(|(n, b)| by(n, b))
        .map(|(n, _)| n.clone())
        .collect();
    let no: Vec<&String> = set
        .iter()
        .map(|(n, _)| n)
        .filter(|n| !yes.contains(n))
        .collect();
    eprintln!(
        "{folder}: {} of {} accepted; accepted {yes:?}; refused {no:?}",
        yes.len(),
        set.len()
    );
    (yes, set.len())
}

#[test]
fn on_held_out_photos_the_feet_score_refuses_everything_else_and_takes_some_feet() {
    let (feet, n_feet) = accepted("feet/heldout", feet_accepted);
    let (other, n_other) = accepted("notfeet/heldout", feet_accepted);
    assert_eq!(n_feet, 12, "the held-out feet");
    assert_eq!(n_other, 16, "the held-out things that are not feet");
    // The goal is 90% (11 of 12); the check reaches 5 (measured once, after it was
    // built). This floor keeps it from getting worse; raise it when the check improves.
    assert!(
        feet.len() >= 5,
        "held-out feet accepted: {} of {n_feet}",
        feet.len()
    );
    assert!(
        (n_other - other.len()) as f64 >= 0.95 * n_other as f64,
        "held-out non-feet refused: {} of {n_other}; accepted {other:?}",
        n_other - other.len()
    );
}

#[test]
fn the_feet_score_keeps_what_it_does_on_the_photos_it_was_built_on() {
    // Measured when the check was built (crates/analysis/README.md): 18 of the 19
    // training feet (the palm detector finds nothing on footmeasurer-88_80cm, two small
    // feet on tiles) and none of the 28 other training photos.
    let (feet, n_feet) = accepted("feet/train", feet_accepted);
    let (other, n_other) = accepted("notfeet/train", feet_accepted);
    assert_eq!((n_feet, n_other), (19, 28));
    assert!(feet.len() >= 18, "{feet:?}");
    assert!(other.is_empty(), "{other:?}");
}

#[test]
fn coffee_rocket_and_cat_are_always_refused() {
    for (folder, name) in [
        ("notfeet/train", "coffee.jpg"),
        ("notfeet/heldout", "rocket.jpg"),
        ("notfeet/train", "cat-chelsea.jpg"),
    ] {
        let photo = bytes(&format!("{folder}/{name}"));
        assert!(!feet_accepted(name, &photo), "{name}");
    }
}

#[test]
fn every_feet_photo_is_no_hand_for_the_hands_score() {
    for folder in ["feet/train", "feet/heldout"] {
        let (hands, _) = accepted(folder, hand_accepted);
        assert!(hands.is_empty(), "{folder}: taken for a hand: {hands:?}");
    }
}

#[test]
fn every_hand_photo_is_not_feet_and_the_hands_score_takes_them() {
    let mut hands = 0;
    for folder in ["notfeet/train", "notfeet/heldout"] {
        for (name, photo) in photos(folder) {
            if !name.starts_with("hand-") {
                continue;
            }
            hands += 1;
            assert!(!feet_accepted(&name, &photo), "{name} taken for feet");
            let taken = hand_accepted(&name, &photo);
            eprintln!("hands score on {folder}/{name}: accepted {taken}");
        }
    }
    assert_eq!(hands, 8, "the eight hand photos");
    // The three hand photos the hands score has always been tested on stay hands.
    for name in [
        "hand-back-right.jpg",
        "hand-palm-left.jpg",
        "hand-fist-right.jpg",
    ] {
        let folder = if name == "hand-fist-right.jpg" {
            "notfeet/train"
        } else {
            "notfeet/heldout"
        };
        assert!(
            hand_accepted(name, &bytes(&format!("{folder}/{name}"))),
            "{name}"
        );
    }
}
