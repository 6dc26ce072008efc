//! The prompt interpreter: presets and plain language to operations.
//!
//! A prompt is lower-cased and split into words; multi-word names ("black and white",
//! "portrait mode", "4 k") are joined into one word first, so "and" can then split the
//! prompt into clauses ("enhance and make it black and white" -> "enhance" | "bnw").
//! Words are reduced to a small vocabulary (synonyms: "b&w", "monochrome" and
//! "grayscale" are all `bnw`), filler words are dropped ("make", "my", "photo", "please"),
//! and rules turn each clause's words into operations, consuming the words they use.
//!
//! The interpreter is strict on purpose: a clause with a word no rule used ("hair",
//! "suit", "hat", "beach") makes the whole prompt unsupported, so "make my hair red and
//! brighter" is refused rather than half done, and a configured generative provider can
//! take it instead.

use crate::{Adjustments, Backdrop, Operation, Style, Unsupported, UpscaleTarget};

/// What the built-in engine can do, for messages.
pub const CAPABILITIES: &str = "I can enhance, upscale (2x or 4K), retouch skin, blur or replace the background, apply a style (black and white, vintage, warm, cool, cinematic, vivid) and adjust brightness, contrast, saturation and blur.";

/// The "Studio background" preset: a neutral grey-blue backdrop, lighter at the top.
pub const STUDIO_BACKDROP: Backdrop = Backdrop::Gradient {
    top: [124, 130, 140],
    bottom: [46, 50, 58],
};

/// The "White background" preset.
pub const WHITE_BACKDROP: Backdrop = Backdrop::Solid {
    rgb: [255, 255, 255],
};

/// Longest prompt considered (characters); anything longer is not a simple edit.
const MAX_PROMPT_CHARS: usize = 500;

fn unsupported(kind: Refusal) -> Unsupported {
    let lead = match kind {
        Refusal::Empty => "Tell me what to change, for example 'enhance' or 'blur the background'.",
        Refusal::Unknown => "I can't do that with the built-in editor.",
        Refusal::Partial => {
            "I can only do part of that with the built-in editor, so I haven't changed anything."
        }
    };
    Unsupported {
        message: format!("{lead} {CAPABILITIES}"),
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Refusal {
    Empty,
    Unknown,
    Partial,
}

/// One word of a clause after canonicalisation.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// A vocabulary word (canonical spelling).
    Word(&'static str),
    /// "more", "increase", "boost" ...
    Up,
    /// "less", "reduce", "lower", "down" ... (the word kept: "cool it down" is not "less
    /// cool").
    Down(&'static str),
    /// "too", "enough": the user describes the problem, not the wish ("too dark").
    Flip,
    /// "a bit", "slightly".
    Weak,
    /// "much", "a lot", "very".
    Strong,
    Number(f32),
    /// "%", "px", "percent", "pixels".
    Unit,
    /// Anything else: a word no rule knows.
    Unknown(String),
}

pub fn interpret(prompt: &str) -> Result<Vec<Operation>, Unsupported> {
    if prompt.chars().count() > MAX_PROMPT_CHARS {
        return Err(unsupported(Refusal::Unknown));
    }
    let tokens = join_phrases(tokenize(&prompt.to_lowercase()));
    let mut ops: Vec<Operation> = Vec::new();
    let mut adj = AdjustDelta::default();
    let (mut understood, mut not_understood) = (0, 0);
    for clause in tokens.split(|t| is_separator(t)) {
        let toks: Vec<Tok> = clause.iter().filter_map(|w| canon(w)).collect();
        if toks.is_empty() {
            continue;
        }
        match interpret_clause(toks, &mut adj) {
            Some(found) => {
                understood += 1;
                ops.extend(found);
            }
            None => not_understood += 1,
        }
    }
    if not_understood > 0 {
        return Err(unsupported(if understood > 0 {
            Refusal::Partial
        } else {
            Refusal::Unknown
        }));
    }
    if let Some(a) = adj.into_adjustments() {
        ops.push(Operation::Adjust(a));
    }
    if ops.is_empty() {
        return Err(unsupported(Refusal::Empty));
    }
    Ok(canonical(ops))
}

/// Words: runs of letters and digits (a decimal point inside a number kept); "&", "+",
/// "/" and "%" as words of their own; other punctuation as a clause break.
fn tokenize(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let decimal_point = c == '.'
            && cur.chars().last().is_some_and(|p| p.is_ascii_digit())
            && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        if c.is_alphanumeric() || decimal_point {
            cur.push(c);
            continue;
        }
        if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        match c {
            '&' | '+' | '/' | '%' => out.push(c.to_string()),
            // Apostrophes join ("don't" -> "dont"); hyphens and spaces separate.
            '\'' | '\u{2019}' => {
                if let Some(last) = out.pop() {
                    cur = last;
                }
            }
            c if c.is_whitespace() || c == '-' || c == '_' => {}
            _ => out.push(",".to_owned()),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    // Split a number from its unit: "120%" is already split; "5px", "4k", "2x" stay.
    out
}

/// Multi-word names joined into one word, before "and" splits clauses.
fn join_phrases(tokens: Vec<String>) -> Vec<String> {
    const PHRASES: &[(&[&str], &str)] = &[
        (&["black", "and", "white"], "bnw"),
        (&["black", "&", "white"], "bnw"),
        (&["black", "n", "white"], "bnw"),
        (&["black", "white"], "bnw"),
        (&["b", "&", "w"], "bnw"),
        (&["b", "/", "w"], "bnw"),
        (&["b", "+", "w"], "bnw"),
        (&["b", "n", "w"], "bnw"),
        (&["b", "w"], "bnw"),
        (&["teal", "and", "orange"], "cinematic"),
        (&["teal", "&", "orange"], "cinematic"),
        (&["orange", "and", "teal"], "cinematic"),
        (&["10", "/", "10"], "10"),
        (&["x", "2"], "2x"),
        (&["2", "x"], "2x"),
        (&["4", "k"], "4k"),
        (&["ultra", "hd"], "4k"),
        (&["full", "hd"], "hd"),
        (&["high", "definition"], "hd"),
        (&["portrait", "mode"], "bokeh"),
        (&["depth", "of", "field"], "bokeh"),
        (&["out", "of", "focus"], "blur"),
        (&["soft", "focus"], "soften"),
        (&["golden", "hour"], "warm"),
        (&["old", "school"], "vintage"),
        (&["old", "fashioned"], "vintage"),
        (&["old", "photo"], "vintage"),
        (&["touch", "up"], "retouch"),
        (&["glow", "up"], "beauty"),
        (&["high", "res"], "upscale"),
        (&["hi", "res"], "upscale"),
        (&["high", "resolution"], "upscale"),
        (&["higher", "resolution"], "upscale"),
        (&["super", "resolution"], "upscale"),
        (&["auto", "enhance"], "enhance"),
        (&["auto", "fix"], "enhance"),
        (&["a", "lot"], "much"),
        (&["a", "bit"], "slightly"),
        (&["a", "little"], "slightly"),
        (&["a", "touch"], "slightly"),
        (&["as", "well"], "also"),
    ];
    let mut out: Vec<String> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    'outer: while i < tokens.len() {
        for (pattern, joined) in PHRASES {
            if tokens[i..].starts_with_words(pattern) {
                out.push((*joined).to_owned());
                i += pattern.len();
                continue 'outer;
            }
        }
        out.push(match tokens[i].as_str() {
            "&" | "+" => "and".to_owned(),
            "/" => ",".to_owned(),
            _ => tokens[i].clone(),
        });
        i += 1;
    }
    out
}

trait StartsWithWords {
    fn starts_with_words(&self, pattern: &[&str]) -> bool;
}

impl StartsWithWords for [String] {
    fn starts_with_words(&self, pattern: &[&str]) -> bool {
        self.len() >= pattern.len() && self.iter().zip(pattern).all(|(a, b)| a == b)
    }
}

fn is_separator(t: &str) -> bool {
    matches!(
        t,
        "," | "and" | "then" | "also" | "plus" | "with" | "but" | "afterwards" | "after"
    )
}

/// A word's meaning; None for filler words.
fn canon(w: &str) -> Option<Tok> {
    // Numbers start with a digit ("nan" and "inf" parse as floats but are words) and
    // must be finite; "5px" is a number with its unit.
    if w.starts_with(|c: char| c.is_ascii_digit()) {
        let n = w.strip_suffix("px").unwrap_or(w);
        if let Ok(n) = n.parse::<f32>()
            && n.is_finite()
        {
            return Some(Tok::Number(n));
        }
    }
    let word = match w {
        // Filler: says nothing about the edit.
        "a" | "an" | "the" | "it" | "its" | "this" | "that" | "these" | "those" | "my" | "me"
        | "mine" | "myself" | "i" | "im" | "ive" | "id" | "we" | "our" | "us" | "you" | "your"
        | "please" | "pls" | "plz" | "kindly" | "can" | "could" | "would" | "will" | "should"
        | "may" | "just" | "make" | "makes" | "making" | "made" | "look" | "looks" | "looking"
        | "like" | "to" | "of" | "in" | "on" | "for" | "at" | "by" | "from" | "into" | "so"
        | "be" | "is" | "are" | "was" | "do" | "does" | "give" | "get" | "let" | "lets"
        | "want" | "wanna" | "need" | "some" | "photo" | "photos" | "picture" | "pictures"
        | "pic" | "pics" | "image" | "images" | "img" | "selfie" | "shot" | "one" | "version"
        | "effect" | "filter" | "style" | "styled" | "tone" | "tones" | "toned" | "overall"
        | "whole" | "entire" | "everything" | "all" | "apply" | "put" | "turn" | "change"
        | "replace" | "swap" | "set" | "switch" | "convert" | "hey" | "hi" | "hello" | "thanks"
        | "thank" | "okay" | "ok" | "now" | "again" | "out" | "bit" | "way" | "level"
        | "levels" | "amount" | "mode" | "lighting" | "quality" | "face" | "faces" | "even"
        | "nice" | "nicer" | "kind" | "sort" | "instead" | "as" => {
            return None;
        }
        "more" | "increase" | "increased" | "boost" | "raise" | "higher" | "up" | "add"
        | "stronger" | "maximize" | "maximise" | "heighten" | "intensify" | "pump" => {
            return Some(Tok::Up);
        }
        "less" | "decrease" | "decreased" | "reduce" | "reduced" | "lower" | "down" | "weaker"
        | "minus" | "fewer" | "not" | "dont" | "no" | "remove" | "without" | "cut" | "drop" => {
            return Some(Tok::Down(if w == "down" { "down" } else { "less" }));
        }
        "too" | "enough" => return Some(Tok::Flip),
        "slightly" | "slight" | "little" | "tad" | "somewhat" | "subtle" | "subtly" | "gently"
        | "gentle" | "mild" | "mildly" | "touch" => return Some(Tok::Weak),
        "much" | "lots" | "very" | "really" | "super" | "extra" | "significantly" | "strongly"
        | "strong" | "heavily" | "heavy" | "dramatic" | "dramatically" | "massively" => {
            return Some(Tok::Strong);
        }
        "%" | "percent" | "pct" | "px" | "pixel" | "pixels" => return Some(Tok::Unit),

        "background" | "backgrounds" | "backdrop" | "bg" | "backround" | "behind" => "background",
        "studio" | "gradient" => "studio",
        "plain" | "clean" | "simple" | "solid" => "plain",
        "white" => "white",
        "black" => "black",
        "gray" | "grey" => "gray",
        "blue" => "blue",
        "red" => "red",
        "green" => "green",
        "yellow" => "yellow",
        "pink" => "pink",
        "purple" => "purple",
        "orange" => "orange",
        "beige" => "beige",
        "cream" => "cream",
        "navy" => "navy",
        "brown" => "brown",
        "teal" => "teal",

        "bnw" | "bw" | "monochrome" | "monochromatic" | "mono" | "grayscale" | "greyscale"
        | "noir" | "blackandwhite" | "colorless" | "colourless" => "bnw",
        "vintage" | "sepia" | "retro" | "film" | "analog" | "analogue" | "nostalgic"
        | "polaroid" | "faded" | "antique" => "vintage",
        "warm" | "warmer" | "warmth" | "warming" | "golden" => "warm",
        "cool" | "cooler" | "cold" | "colder" | "icy" => "cool",
        "cinematic" | "movie" | "hollywood" | "filmic" | "cinema" => "cinematic",
        "vivid" | "vibrant" | "pop" | "punchy" | "punchier" | "poppy" => "vivid",

        "enhance" | "enhanced" | "enhancement" | "improve" | "improved" | "fix" | "fixed"
        | "autofix" | "auto" | "better" | "optimize" | "optimise" | "polish" | "upgrade" => {
            "enhance"
        }
        "score" | "rating" => "score",
        "prettier" | "beautiful" | "attractive" | "hotter" | "cuter" | "gorgeous" | "beauty"
        | "stunning" | "handsome" | "flawless" => "beauty",
        "upscale" | "upscaled" | "upscaling" | "enlarge" | "enlarged" | "bigger" | "larger"
        | "resolution" | "res" | "upsize" | "double" | "2x" | "superres" => "upscale",
        "4k" | "uhd" | "2160p" | "3840" | "4x" | "3x" => "4k",
        "hd" | "1080p" | "hires" | "highres" => "hd",
        "retouch" | "retouched" | "retouching" | "airbrush" | "airbrushed" | "blemish"
        | "blemishes" | "acne" | "pimple" | "pimples" | "spots" | "wrinkles" | "pores"
        | "beautify" | "complexion" | "touchup" => "retouch",
        "skin" => "skin",
        "smooth" | "smoother" | "smoothen" | "smoothing" | "smoothed" => "smooth",
        "clear" | "clearer" => "clear",
        "sharpen" | "sharper" | "sharp" | "sharpness" | "crisp" | "crisper" | "crispy"
        | "detail" | "details" | "detailed" | "clarity" | "focus" | "focused" | "deblur"
        | "unblur" | "definition" => "sharpen",
        "soften" | "softer" | "soft" | "dreamy" | "glow" | "glowy" | "softened" => "soften",
        "blur" | "blurry" | "blurred" | "blurring" | "blurr" | "defocus" | "defocused" => "blur",
        "bokeh" => "bokeh",

        "bright" | "brightness" | "light" | "lightness" | "exposure" | "exposed" | "lit" => {
            "bright"
        }
        "brighter" | "brighten" | "lighter" | "lighten" | "brightened" => "brighter",
        "dark" | "darker" | "darken" | "dim" | "dimmer" | "moody" | "moodier" | "darkened" => {
            "darker"
        }
        "contrast" | "contrasty" | "contrasted" => "contrast",
        "flat" | "flatter" => "flat",
        "saturation" | "saturated" | "saturate" | "color" | "colors" | "colour" | "colours"
        | "colorful" | "colourful" | "vibrance" | "intense" => "saturation",
        "muted" | "desaturate" | "desaturated" | "dull" | "duller" | "washed" | "pastel"
        | "subdued" => "muted",
        other => return Some(Tok::Unknown(other.to_owned())),
    };
    Some(Tok::Word(word))
}

/// A clause's words with the ones a rule has used marked.
struct Clause {
    toks: Vec<Tok>,
    used: Vec<bool>,
}

impl Clause {
    /// Whether the clause has the word, not yet used by a rule.
    fn has(&self, w: &str) -> bool {
        self.toks
            .iter()
            .zip(&self.used)
            .any(|(t, &u)| !u && matches!(t, Tok::Word(x) if *x == w))
    }

    fn has_any(&self, ws: &[&str]) -> bool {
        ws.iter().any(|w| self.has(w))
    }

    /// Marks every occurrence of the words as used.
    fn take(&mut self, ws: &[&str]) {
        for (t, u) in self.toks.iter().zip(self.used.iter_mut()) {
            if let Tok::Word(x) = t
                && ws.contains(x)
            {
                *u = true;
            }
        }
    }

    fn count(&self, f: impl Fn(&Tok) -> bool) -> usize {
        self.toks.iter().filter(|t| f(t)).count()
    }

    fn first_colour(&self) -> Option<(&'static str, [u8; 3])> {
        self.toks.iter().find_map(|t| match t {
            Tok::Word(w) => colour(w).map(|c| (*w, c)),
            _ => None,
        })
    }

    fn number(&self) -> Option<f32> {
        self.toks.iter().find_map(|t| match t {
            Tok::Number(n) => Some(*n),
            _ => None,
        })
    }

    fn take_numbers(&mut self) {
        for (t, u) in self.toks.iter().zip(self.used.iter_mut()) {
            if matches!(t, Tok::Number(_) | Tok::Unit) {
                *u = true;
            }
        }
    }

    /// +1 or -1 from the direction words: each "less" or "too" turns it around.
    fn direction(&self) -> f32 {
        let flips = self.count(|t| matches!(t, Tok::Down(_) | Tok::Flip));
        if flips % 2 == 1 { -1.0 } else { 1.0 }
    }

    /// A negation or decrease: "less", "no", "remove" (but not "down").
    fn has_down(&self) -> bool {
        self.toks.contains(&Tok::Down("less"))
    }

    /// 0.5 for "a bit", 2 for "much", 1 otherwise.
    fn intensity(&self) -> f32 {
        if self.toks.contains(&Tok::Strong) {
            2.0
        } else if self.toks.contains(&Tok::Weak) {
            0.5
        } else {
            1.0
        }
    }

    /// Everything a rule did not use must be a modifier; a number or unit must have been
    /// used by a rule.
    fn fully_used(&self) -> bool {
        self.toks.iter().zip(&self.used).all(|(t, &u)| {
            u || matches!(
                t,
                Tok::Up | Tok::Down(_) | Tok::Flip | Tok::Weak | Tok::Strong
            )
        })
    }
}

fn colour(w: &str) -> Option<[u8; 3]> {
    Some(match w {
        "white" => [255, 255, 255],
        "black" => [12, 12, 14],
        "gray" => [128, 128, 128],
        "blue" => [52, 101, 164],
        "red" => [178, 34, 34],
        "green" => [60, 140, 80],
        "yellow" => [240, 205, 70],
        "pink" => [240, 170, 190],
        "purple" => [120, 80, 160],
        "orange" => [240, 140, 50],
        "beige" => [225, 210, 185],
        "cream" => [245, 238, 220],
        "navy" => [25, 40, 80],
        "brown" => [110, 75, 50],
        "teal" => [30, 120, 120],
        _ => return None,
    })
}

/// Slider changes gathered over the whole prompt, as percentage points from 100 (blur as
/// pixels), or set outright when the prompt names a value ("brightness 120%").
#[derive(Default)]
struct AdjustDelta {
    brightness: Slider,
    contrast: Slider,
    saturation: Slider,
    blur_px: Option<f32>,
}

#[derive(Default, Clone, Copy)]
struct Slider {
    delta: f32,
    set: Option<f32>,
    touched: bool,
}

impl Slider {
    fn value(self) -> f32 {
        (self.set.unwrap_or(100.0) + self.delta).clamp(0.0, 200.0)
    }
}

impl AdjustDelta {
    fn into_adjustments(self) -> Option<Adjustments> {
        let any = self.brightness.touched
            || self.contrast.touched
            || self.saturation.touched
            || self.blur_px.is_some();
        any.then(|| Adjustments {
            brightness: self.brightness.value(),
            contrast: self.contrast.value(),
            saturation: self.saturation.value(),
            blur_px: self.blur_px.unwrap_or(0.0).clamp(0.0, 10.0),
        })
    }
}

/// The operations of one clause, or None if some of its words meant nothing to any
/// rule.
fn interpret_clause(toks: Vec<Tok>, adj: &mut AdjustDelta) -> Option<Vec<Operation>> {
    let used = vec![false; toks.len()];
    let mut c = Clause { toks, used };
    let mut ops = Vec::new();
    background_rule(&mut c, &mut ops);
    beauty_rule(&mut c, &mut ops);
    retouch_rule(&mut c, &mut ops);
    detail_rule(&mut c, &mut ops, adj);
    upscale_rule(&mut c, &mut ops);
    style_rule(&mut c, &mut ops, adj);
    adjust_rule(&mut c, adj);
    if c.has("enhance") {
        c.take(&["enhance"]);
        ops.push(Operation::Enhance);
    }
    let matched = c.used.iter().any(|&u| u);
    (matched && c.fully_used()).then_some(ops)
}

fn background_rule(c: &mut Clause, ops: &mut Vec<Operation>) {
    if !c.has("background") {
        // Names that mean a background edit on their own.
        if c.has("bokeh") {
            c.take(&["bokeh", "blur", "background"]);
            ops.push(Operation::Background {
                backdrop: Backdrop::Blur,
            });
        } else if c.has("studio") {
            ops.push(Operation::Background {
                backdrop: studio_backdrop(c),
            });
        }
        return;
    }
    let backdrop = if c.has("studio") {
        // Before blur: in "soft gradient background" the softness is the gradient's.
        studio_backdrop(c)
    } else if c.has_any(&["blur", "bokeh", "soften"]) {
        if c.has_down() {
            // "less background blur": there is no such slider.
            return;
        }
        c.take(&["blur", "bokeh", "soften"]);
        Backdrop::Blur
    } else if let Some((name, rgb)) = c.first_colour() {
        c.take(&[name, "plain"]);
        Backdrop::Solid { rgb }
    } else if c.has("plain") || c.has_down() {
        // "plain background", "remove the background", "no background".
        c.take(&["plain"]);
        WHITE_BACKDROP
    } else {
        // "change the background to a beach": not ours.
        return;
    };
    c.take(&["background"]);
    ops.push(Operation::Background { backdrop });
}

/// A studio backdrop: the gradient, or a plain one in the colour named
/// ("studio white"); "soft" and "plain" describe it.
fn studio_backdrop(c: &mut Clause) -> Backdrop {
    c.take(&["studio", "plain", "soften"]);
    match c.first_colour() {
        Some((name, rgb)) => {
            c.take(&[name]);
            Backdrop::Solid { rgb }
        }
        None => STUDIO_BACKDROP,
    }
}

/// "Improve Score to 10", "make me prettier": the full treatment.
fn beauty_rule(c: &mut Clause, ops: &mut Vec<Operation>) {
    if c.has_any(&["score", "beauty"]) {
        c.take(&["score", "beauty", "enhance"]);
        c.take_numbers();
        ops.push(Operation::Enhance);
        ops.push(Operation::Retouch);
    }
}

fn retouch_rule(c: &mut Clause, ops: &mut Vec<Operation>) {
    let skin_words =
        c.has("skin") && c.has_any(&["smooth", "soften", "clear", "enhance", "retouch"]);
    if c.has("retouch") || c.has("smooth") || skin_words {
        c.take(&["retouch", "smooth", "skin"]);
        if skin_words {
            c.take(&["soften", "clear", "enhance"]);
        }
        ops.push(Operation::Retouch);
    }
}

/// Sharpen, soften, and "less blurry" (which is sharpen, not blur).
fn detail_rule(c: &mut Clause, ops: &mut Vec<Operation>, adj: &mut AdjustDelta) {
    let down = c.has_down();
    if c.has("sharpen") || c.has("clear") {
        c.take(&["sharpen", "clear"]);
        ops.push(if down {
            Operation::Soften
        } else {
            Operation::Sharpen
        });
    } else if c.has("soften") {
        c.take(&["soften"]);
        ops.push(if down {
            Operation::Sharpen
        } else {
            Operation::Soften
        });
    } else if c.has("blur") {
        c.take(&["blur"]);
        if down {
            // "less blurry", "remove the blur", "not blurry".
            ops.push(Operation::Sharpen);
        } else {
            let px = c.number().unwrap_or(2.0 * c.intensity());
            c.take_numbers();
            adj.blur_px = Some(adj.blur_px.unwrap_or(0.0) + px);
        }
    }
}

fn upscale_rule(c: &mut Clause, ops: &mut Vec<Operation>) {
    if !c.has_any(&["upscale", "4k", "hd"]) || c.has_down() {
        return;
    }
    let target = if c.has_any(&["4k", "hd"]) {
        UpscaleTarget::FourK
    } else {
        UpscaleTarget::Double
    };
    c.take(&["upscale", "4k", "hd", "enhance"]);
    ops.push(Operation::Upscale { target });
}

fn style_rule(c: &mut Clause, ops: &mut Vec<Operation>, adj: &mut AdjustDelta) {
    let down = c.has_down();
    let mut push = |s: Style| ops.push(Operation::Style { style: s });
    if c.has("bnw") {
        c.take(&["bnw"]);
        push(Style::BlackAndWhite);
    }
    if c.has("vintage") {
        c.take(&["vintage"]);
        push(Style::Vintage);
    }
    if c.has("warm") {
        c.take(&["warm"]);
        push(if down { Style::Cool } else { Style::Warm });
    }
    if c.has("cool") {
        c.take(&["cool"]);
        push(if down { Style::Warm } else { Style::Cool });
    }
    if c.has("cinematic") {
        c.take(&["cinematic"]);
        push(Style::Cinematic);
    }
    if c.has("vivid") {
        c.take(&["vivid", "saturation"]);
        if down {
            // "less vibrant": muted colours, not a look.
            adj.saturation.delta -= 30.0 * c.intensity();
            adj.saturation.touched = true;
        } else {
            push(Style::Vivid);
        }
    }
}

/// Brightness, contrast and saturation.
fn adjust_rule(c: &mut Clause, adj: &mut AdjustDelta) {
    // (vocabulary word, slider, sign the word carries, step in percentage points)
    const DIMS: &[(&str, usize, f32, f32)] = &[
        // Words that carry their own direction first: "muted colours" is muted.
        ("brighter", 0, 1.0, 15.0),
        ("darker", 0, -1.0, 15.0),
        ("flat", 1, -1.0, 15.0),
        ("muted", 2, -1.0, 30.0),
        ("bright", 0, 1.0, 15.0),
        ("contrast", 1, 1.0, 15.0),
        ("saturation", 2, 1.0, 25.0),
    ];
    let Some(&(word, slider, sign, step)) = DIMS.iter().find(|d| c.has(d.0)) else {
        return;
    };
    let relative = c.has_any(&["brighter", "darker", "flat", "muted"])
        || c.toks
            .iter()
            .any(|t| matches!(t, Tok::Up | Tok::Down(_) | Tok::Flip));
    let s = match slider {
        0 => &mut adj.brightness,
        1 => &mut adj.contrast,
        _ => &mut adj.saturation,
    };
    let direction = sign * c.direction();
    match c.number() {
        Some(n) if relative => s.delta += direction * n,
        Some(n) => s.set = Some(n),
        None => s.delta += direction * step * c.intensity(),
    }
    s.touched = true;
    c.take_numbers();
    c.take(&[word]);
    // Other words for the same slider in the clause ("brighten the brightness").
    let same: Vec<&str> = DIMS.iter().filter(|d| d.1 == slider).map(|d| d.0).collect();
    c.take(&same);
    // "more contrast, brighter": a second slider in the same clause.
    if DIMS.iter().any(|d| d.1 != slider && c.has(d.0)) {
        adjust_rule(c, adj);
    }
}

/// The engine's canonical order, duplicates removed: colour and tone work happens at
/// the photo's own size and the upscale last (cheaper, and the upscale's sharpening
/// then sees the final image). Of several upscales the larger wins; of several
/// backdrops the last named.
fn canonical(ops: Vec<Operation>) -> Vec<Operation> {
    let rank = |op: &Operation| match op {
        Operation::Enhance => 0,
        Operation::Retouch => 1,
        Operation::Background { .. } => 2,
        Operation::Style { .. } => 3,
        Operation::Adjust(_) => 4,
        Operation::Sharpen => 5,
        Operation::Soften => 6,
        Operation::Upscale { .. } => 7,
    };
    let mut out: Vec<Operation> = Vec::new();
    for op in ops {
        match &op {
            Operation::Background { .. } => {
                out.retain(|o| !matches!(o, Operation::Background { .. }));
            }
            Operation::Upscale { target } => {
                let bigger = out.iter().any(|o| {
                    matches!(o, Operation::Upscale { target: t } if *t == UpscaleTarget::FourK && *target == UpscaleTarget::Double)
                });
                if bigger {
                    continue;
                }
                out.retain(|o| !matches!(o, Operation::Upscale { .. }));
            }
            _ => {}
        }
        if !out.contains(&op) {
            out.push(op);
        }
    }
    out.sort_by_key(rank);
    out
}
