mod common;

use common::*;
use prettyscore_analysis::{analyze_pet, pet_title};

const IMAGES: [&str; 4] = [
    "pet/cat-chelsea.png",
    "face/astronaut.png",
    "noface/coffee.png",
    "noface/rocket.jpg",
];

#[test]
fn pet_scores_are_whole_numbers_from_7_to_10_with_the_spec_titles() {
    for f in IMAGES {
        let r = analyze_pet(&bytes(f)).unwrap();
        assert!((7..=10).contains(&r.score), "{f}: {}", r.score);
        assert_eq!(r.title, pet_title(r.score));
        assert_eq!(r, analyze_pet(&bytes(f)).unwrap(), "deterministic");
    }
}

#[test]
fn a_blurred_dark_copy_never_scores_higher() {
    let img = rgb("pet/cat-chelsea.png");
    let worse = image::imageops::blur(&image::imageops::colorops::brighten(&img, -90), 4.0);
    let a = analyze_pet(&png(&img)).unwrap();
    let b = analyze_pet(&png(&worse)).unwrap();
    assert!(b.score <= a.score, "{} vs {}", b.score, a.score);
}
