//! The prompt interpreter on the UI's presets and on plain-language prompts, including
//! the ones the built-in engine must refuse.

use prettyscore_imaging::{Adjustments, Backdrop, Operation, Style, UpscaleTarget, interpret};

fn ops(prompt: &str) -> Vec<Operation> {
    interpret(prompt).unwrap_or_else(|e| panic!("{prompt:?} refused: {}", e.message))
}

fn refused(prompt: &str) -> String {
    match interpret(prompt) {
        Ok(ops) => panic!("{prompt:?} should be refused, got {ops:?}"),
        Err(e) => e.message,
    }
}

fn style(s: Style) -> Operation {
    Operation::Style { style: s }
}

fn upscale(target: UpscaleTarget) -> Operation {
    Operation::Upscale { target }
}

fn backdrop(b: Backdrop) -> Operation {
    Operation::Background { backdrop: b }
}

/// The single Adjust operation of a prompt.
fn adjust(prompt: &str) -> Adjustments {
    match ops(prompt).as_slice() {
        [Operation::Adjust(a)] => *a,
        other => panic!("{prompt:?} gave {other:?}"),
    }
}

const STUDIO: Backdrop = Backdrop::Gradient {
    top: [124, 130, 140],
    bottom: [46, 50, 58],
};
const WHITE: Backdrop = Backdrop::Solid {
    rgb: [255, 255, 255],
};

#[test]
fn every_ui_preset_maps_to_its_operations() {
    use Operation::{Enhance, Retouch, Sharpen, Soften};
    let cases: Vec<(&str, Vec<Operation>)> = vec![
        ("Improve Score to 10", vec![Enhance, Retouch]),
        ("Upscale", vec![upscale(UpscaleTarget::Double)]),
        ("Upscale to 4K", vec![upscale(UpscaleTarget::FourK)]),
        ("Enhance", vec![Enhance]),
        ("Retouch", vec![Retouch]),
        ("Smooth skin", vec![Retouch]),
        ("Blur the background", vec![backdrop(Backdrop::Blur)]),
        ("Studio background", vec![backdrop(STUDIO)]),
        ("White background", vec![backdrop(WHITE)]),
        ("Black and white", vec![style(Style::BlackAndWhite)]),
        ("Vintage", vec![style(Style::Vintage)]),
        ("Warm", vec![style(Style::Warm)]),
        ("Cool", vec![style(Style::Cool)]),
        ("Cinematic", vec![style(Style::Cinematic)]),
        ("Vivid", vec![style(Style::Vivid)]),
        ("Sharpen", vec![Sharpen]),
        ("Soften", vec![Soften]),
    ];
    for (prompt, expected) in cases {
        assert_eq!(ops(prompt), expected, "{prompt}");
    }
}

#[test]
fn brighter_darker_contrast_and_saturation_move_one_slider_each() {
    let d = Adjustments::default();
    assert!(adjust("make it brighter").brightness > 100.0);
    assert_eq!(adjust("make it brighter").contrast, d.contrast);
    assert!(adjust("make it darker").brightness < 100.0);
    assert!(adjust("more contrast").contrast > 100.0);
    assert!(adjust("less contrast").contrast < 100.0);
    assert!(adjust("more saturated").saturation > 100.0);
    assert!(adjust("muted colours").saturation < 100.0);
    assert!(adjust("desaturate it").saturation < 100.0);
    assert_eq!(adjust("more saturated").blur_px, 0.0);
}

#[test]
fn intensity_words_scale_the_change() {
    let a = |p: &str| adjust(p).brightness - 100.0;
    assert!(a("a bit brighter") < a("brighter"));
    assert!(a("much brighter") > a("brighter"));
    assert!(a("a lot brighter") > a("brighter"));
}

#[test]
fn problems_are_read_as_wishes() {
    assert!(adjust("it's too dark").brightness > 100.0);
    assert!(adjust("too bright").brightness < 100.0);
    assert!(adjust("not bright enough").brightness > 100.0);
    assert!(adjust("less dark").brightness > 100.0);
    assert!(adjust("turn down the brightness").brightness < 100.0);
}

#[test]
fn numbers_set_or_shift_the_sliders() {
    assert_eq!(adjust("brightness 120%").brightness, 120.0);
    assert_eq!(adjust("set contrast to 80").contrast, 80.0);
    assert_eq!(adjust("increase brightness by 20%").brightness, 120.0);
    assert_eq!(adjust("reduce saturation by 30 percent").saturation, 70.0);
    assert_eq!(adjust("blur 5px").blur_px, 5.0);
    assert_eq!(adjust("blur by 1.5 px").blur_px, 1.5);
    // Clamped to the sliders' ranges.
    assert_eq!(adjust("brightness 500%").brightness, 200.0);
    assert_eq!(adjust("blur 40px").blur_px, 10.0);
}

#[test]
fn plain_prompts_and_synonyms() {
    use Operation::{Enhance, Retouch, Sharpen, Soften};
    let bw = || style(Style::BlackAndWhite);
    let cases: Vec<(&str, Vec<Operation>)> = vec![
        ("b&w", vec![bw()]),
        ("B/W please", vec![bw()]),
        ("make it monochrome", vec![bw()]),
        ("grayscale", vec![bw()]),
        ("Greyscale!", vec![bw()]),
        ("black & white", vec![bw()]),
        ("make it sepia", vec![style(Style::Vintage)]),
        ("retro film look", vec![style(Style::Vintage)]),
        (
            "make it look like an old photo",
            vec![style(Style::Vintage)],
        ),
        ("warmer tones", vec![style(Style::Warm)]),
        ("golden hour", vec![style(Style::Warm)]),
        ("cooler please", vec![style(Style::Cool)]),
        ("less warm", vec![style(Style::Cool)]),
        ("cool it down", vec![style(Style::Cool)]),
        ("teal and orange", vec![style(Style::Cinematic)]),
        ("give it a movie look", vec![style(Style::Cinematic)]),
        ("make the colours pop", vec![style(Style::Vivid)]),
        ("more vibrant colors", vec![style(Style::Vivid)]),
        ("upscale to 4k", vec![upscale(UpscaleTarget::FourK)]),
        ("make it 4K", vec![upscale(UpscaleTarget::FourK)]),
        ("HD", vec![upscale(UpscaleTarget::FourK)]),
        ("Ultra HD please", vec![upscale(UpscaleTarget::FourK)]),
        (
            "increase the resolution",
            vec![upscale(UpscaleTarget::Double)],
        ),
        ("upscale 2x", vec![upscale(UpscaleTarget::Double)]),
        ("make it bigger", vec![upscale(UpscaleTarget::Double)]),
        ("higher resolution", vec![upscale(UpscaleTarget::Double)]),
        ("bokeh", vec![backdrop(Backdrop::Blur)]),
        ("portrait mode", vec![backdrop(Backdrop::Blur)]),
        ("make the background blurry", vec![backdrop(Backdrop::Blur)]),
        ("background blur", vec![backdrop(Backdrop::Blur)]),
        ("remove the background", vec![backdrop(WHITE)]),
        ("plain background", vec![backdrop(WHITE)]),
        (
            "change the background to blue",
            vec![backdrop(Backdrop::Solid {
                rgb: [52, 101, 164],
            })],
        ),
        (
            "grey backdrop",
            vec![backdrop(Backdrop::Solid {
                rgb: [128, 128, 128],
            })],
        ),
        ("studio", vec![backdrop(STUDIO)]),
        ("gradient background", vec![backdrop(STUDIO)]),
        ("Soft gradient background", vec![backdrop(STUDIO)]),
        ("Studio white background", vec![backdrop(WHITE)]),
        ("studio white", vec![backdrop(WHITE)]),
        ("auto-enhance", vec![Enhance]),
        ("improve the quality", vec![Enhance]),
        ("fix my photo", vec![Enhance]),
        ("make it look better", vec![Enhance]),
        ("smooth my skin", vec![Retouch]),
        ("remove blemishes", vec![Retouch]),
        ("airbrush", vec![Retouch]),
        ("clear skin", vec![Retouch]),
        ("soften my skin", vec![Retouch]),
        ("touch up my face", vec![Retouch]),
        ("make me prettier", vec![Enhance, Retouch]),
        ("glow up", vec![Enhance, Retouch]),
        ("10/10 score", vec![Enhance, Retouch]),
        ("make it sharper", vec![Sharpen]),
        ("more detail", vec![Sharpen]),
        ("less blurry", vec![Sharpen]),
        ("remove the blur", vec![Sharpen]),
        ("soft focus", vec![Soften]),
        ("dreamy", vec![Soften]),
    ];
    for (prompt, expected) in cases {
        assert_eq!(ops(prompt), expected, "{prompt}");
    }
}

#[test]
fn blur_without_background_is_the_blur_slider() {
    assert_eq!(adjust("blur it").blur_px, 2.0);
    assert!(adjust("blur it a lot").blur_px > 2.0);
}

#[test]
fn combinations_run_in_the_canonical_order() {
    use Operation::{Enhance, Retouch};
    assert_eq!(
        ops("enhance and make it black and white"),
        vec![Enhance, style(Style::BlackAndWhite)]
    );
    assert_eq!(
        ops("Make it black & white, then enhance it."),
        vec![Enhance, style(Style::BlackAndWhite)]
    );
    assert_eq!(
        ops("upscale to 4K and blur the background"),
        vec![backdrop(Backdrop::Blur), upscale(UpscaleTarget::FourK)]
    );
    assert_eq!(
        ops("smooth skin, warm tones and a studio background"),
        vec![Retouch, backdrop(STUDIO), style(Style::Warm)]
    );
    // Sliders from several clauses merge into one Adjust.
    let both = ops("brighter and more contrast");
    match both.as_slice() {
        [Operation::Adjust(a)] => {
            assert!(a.brightness > 100.0 && a.contrast > 100.0 && a.saturation == 100.0)
        }
        other => panic!("{other:?}"),
    }
    // The same edit twice is done once.
    assert_eq!(ops("enhance, enhance"), vec![Enhance]);
    // Of two upscales, the larger.
    assert_eq!(ops("upscale and 4k"), vec![upscale(UpscaleTarget::FourK)]);
}

#[test]
fn case_and_punctuation_do_not_matter() {
    assert_eq!(ops("  BLACK AND WHITE!!! "), ops("black and white"));
    assert_eq!(ops("Upscale to 4K."), ops("upscale to 4k"));
    assert_eq!(
        ops("Blur the background, please"),
        ops("blur the background")
    );
}

#[test]
fn what_the_engine_cannot_do_is_refused_with_what_it_can() {
    for prompt in [
        "give me red hair",
        "put me in a suit",
        "add a hat",
        "remove the person",
        "make me look younger",
        "turn me into a cartoon",
        "change the background to a beach",
        "make my eyes blue",
        "add sunglasses",
        "whiten my teeth",
        "make me smile",
        "give me a beard",
        "anime style",
        "put me on the moon",
        "abracadabra",
        "lorem ipsum dolor",
    ] {
        let message = refused(prompt);
        assert!(
            message.starts_with("I can't do that"),
            "{prompt}: {message}"
        );
        for capability in [
            "enhance",
            "upscale",
            "retouch",
            "background",
            "black and white",
            "brightness",
        ] {
            assert!(message.contains(capability), "{prompt}: {message}");
        }
    }
}

#[test]
fn half_a_supported_prompt_is_not_half_done() {
    for prompt in [
        "make my hair red and brighter",
        "enhance and add a hat",
        "blur the background and put me in a suit",
        "black and white with a beach background",
    ] {
        let message = refused(prompt);
        assert!(
            message.starts_with("I can only do part of that"),
            "{prompt}: {message}"
        );
    }
    // One clause, one unknown word: refused too.
    assert!(refused("make my hair brighter").starts_with("I can't"));
}

#[test]
fn empty_and_meaningless_prompts_are_refused() {
    for prompt in [
        "", "   ", "please", "hello", "make it", "!!!", "more", "a bit",
    ] {
        let message = refused(prompt);
        assert!(message.contains("I can enhance"), "{prompt:?}: {message}");
    }
    assert!(refused(&"enhance ".repeat(200)).contains("I can enhance"));
}

#[test]
fn odd_input_never_panics_and_never_yields_a_non_finite_slider() {
    for prompt in [
        "brightness nan",
        "brightness inf",
        "blur infinity px",
        "brightness 1e400",
        "contrast 1e30",
        "blur -5px",
        "brighter 99999999999999999999999%",
        "😀😀 make it warm 🔥",
        "ÉNHANCE",
        "enhance\0\u{202e}",
        "&&&&",
        "and and and",
        "black and",
        "b & w & 4k & hd",
        "1.2.3.4",
        "x2 2x x 2",
    ] {
        if let Ok(ops) = interpret(prompt) {
            for op in ops {
                if let Operation::Adjust(a) = op {
                    for v in [a.brightness, a.contrast, a.saturation, a.blur_px] {
                        assert!(v.is_finite() && v >= 0.0, "{prompt:?}: {a:?}");
                    }
                    assert!(
                        a.brightness <= 200.0
                            && a.contrast <= 200.0
                            && a.saturation <= 200.0
                            && a.blur_px <= 10.0
                    );
                }
            }
        }
    }
    assert_eq!(adjust("contrast 1e30").contrast, 200.0);
    assert!(interpret("brightness nan").is_err());
}
