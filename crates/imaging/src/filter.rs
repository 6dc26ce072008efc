//! Separable filters on [`Plane`]s: box means, Gaussian blur and the guided filter.
//!
//! Box passes use running sums in f64, so their cost does not depend on the radius and
//! their result does not drift along a 4000-pixel row. Borders repeat the edge pixel,
//! so a blurred photo does not darken towards its edges.

use crate::raster::Plane;

/// One horizontal box pass over the window `x - left ..= x + right`. Four rows run in
/// lockstep: a running sum is a chain of dependent additions, and interleaving rows
/// lets the processor overlap them (each row's arithmetic is unchanged).
fn box_h(src: &Plane, dst: &mut Plane, left: usize, right: usize) {
    const LANES: usize = 4;
    let (w, h) = (src.w, src.h);
    if left + right < 5 && w > left + right {
        return box_h_small(src, dst, left, right);
    }
    let inv = 1.0 / (left + right + 1) as f64;
    let mut y = 0;
    while y < h {
        let n = (h - y).min(LANES);
        let rows: Vec<&[f32]> = (0..n)
            .map(|k| &src.data[(y + k) * w..(y + k + 1) * w])
            .collect();
        let mut acc = [0.0f64; LANES];
        for (k, s) in rows.iter().enumerate() {
            for i in -(left as isize)..=(right as isize) {
                acc[k] += s[i.clamp(0, w as isize - 1) as usize] as f64;
            }
        }
        let out = &mut dst.data[y * w..(y + n) * w];
        for x in 0..w {
            let add = (x + right + 1).min(w - 1);
            let sub = x.saturating_sub(left);
            for (k, s) in rows.iter().enumerate() {
                out[k * w + x] = (acc[k] * inv) as f32;
                acc[k] += s[add] as f64 - s[sub] as f64;
            }
        }
        y += n;
    }
}

/// A narrow horizontal box (up to 5 taps) summed directly: no running sum, so the
/// interior vectorises.
fn box_h_small(src: &Plane, dst: &mut Plane, left: usize, right: usize) {
    let w = src.w;
    let inv = 1.0 / (left + right + 1) as f32;
    let interior = left..w - right;
    for (s, d) in src.data.chunks_exact(w).zip(dst.data.chunks_exact_mut(w)) {
        let edge = |x: usize| -> f32 {
            (x as isize - left as isize..=(x + right) as isize)
                .map(|i| s[i.clamp(0, w as isize - 1) as usize])
                .sum()
        };
        for (x, out) in d.iter_mut().enumerate() {
            let sum = if interior.contains(&x) {
                s[x - left..=x + right].iter().sum::<f32>()
            } else {
                edge(x)
            };
            *out = sum * inv;
        }
    }
}

/// One vertical box pass over the window `y - top ..= y + bottom`, row by row so that
/// memory is read in order.
fn box_v(src: &Plane, dst: &mut Plane, top: usize, bottom: usize) {
    let (w, h) = (src.w, src.h);
    let last = h as isize - 1;
    let inv = 1.0 / (top + bottom + 1) as f64;
    let row = |i: isize| {
        let r = i.clamp(0, last) as usize;
        &src.data[r * w..(r + 1) * w]
    };
    let mut acc = vec![0.0f64; w];
    for i in -(top as isize)..=(bottom as isize) {
        for (a, &v) in acc.iter_mut().zip(row(i)) {
            *a += v as f64;
        }
    }
    for y in 0..h {
        let d = &mut dst.data[y * w..(y + 1) * w];
        for (o, &a) in d.iter_mut().zip(&acc) {
            *o = (a * inv) as f32;
        }
        let add = row(y as isize + bottom as isize + 1);
        let sub = row(y as isize - top as isize);
        for ((a, &p), &m) in acc.iter_mut().zip(add).zip(sub) {
            *a += p as f64 - m as f64;
        }
    }
}

/// Mean over a (2r+1) x (2r+1) box, in place (`scratch` is resized as needed).
pub fn box_mean(p: &mut Plane, r: usize, scratch: &mut Plane) {
    if r == 0 {
        return;
    }
    fit(scratch, p);
    box_h(p, scratch, r, r);
    box_v(scratch, p, r, r);
}

fn fit(scratch: &mut Plane, like: &Plane) {
    if scratch.w != like.w || scratch.h != like.h {
        *scratch = Plane::new(like.w, like.h);
    }
}

/// Gaussian blur with standard deviation `sigma` pixels, in place.
///
/// From sigma 2 up this is the three-box approximation that SVG's feGaussianBlur, and so
/// the browsers' CSS `blur()`, specify (box size d = floor(sigma * 3 sqrt(2 pi) / 4 +
/// 0.5); for an even d two boxes offset by half a pixel each way and one of d + 1), so the
/// baked result matches the editor's preview. Below 2 a sampled Gaussian kernel is used,
/// as browsers do.
pub fn gaussian(p: &mut Plane, sigma: f32, scratch: &mut Plane) {
    if sigma.is_nan() || sigma <= 0.0 || p.data.is_empty() {
        return;
    }
    fit(scratch, p);
    if sigma < 2.0 {
        let k = kernel(sigma);
        conv_h(p, scratch, &k);
        conv_v(scratch, p, &k);
        return;
    }
    let d = (sigma as f64 * 3.0 * (2.0 * std::f64::consts::PI).sqrt() / 4.0 + 0.5).floor() as usize;
    let passes: [(usize, usize); 3] = if d % 2 == 1 {
        let r = (d - 1) / 2;
        [(r, r), (r, r), (r, r)]
    } else {
        [(d / 2, d / 2 - 1), (d / 2 - 1, d / 2), (d / 2, d / 2)]
    };
    // Three horizontal passes p -> s -> p -> s, then three vertical s -> p -> s -> p.
    box_h(p, scratch, passes[0].0, passes[0].1);
    box_h(scratch, p, passes[1].0, passes[1].1);
    box_h(p, scratch, passes[2].0, passes[2].1);
    box_v(scratch, p, passes[0].0, passes[0].1);
    box_v(p, scratch, passes[1].0, passes[1].1);
    box_v(scratch, p, passes[2].0, passes[2].1);
}

/// A normalised Gaussian kernel of radius ceil(3 sigma).
fn kernel(sigma: f32) -> Vec<f32> {
    let r = (3.0 * sigma).ceil().max(1.0) as i32;
    let s2 = 2.0 * (sigma as f64) * (sigma as f64);
    let raw: Vec<f64> = (-r..=r)
        .map(|i| libm::exp(-((i * i) as f64) / s2))
        .collect();
    let sum: f64 = raw.iter().sum();
    raw.iter().map(|v| (v / sum) as f32).collect()
}

fn conv_h(src: &Plane, dst: &mut Plane, k: &[f32]) {
    let w = src.w;
    let r = k.len() / 2;
    for y in 0..src.h {
        let s = &src.data[y * w..(y + 1) * w];
        let d = &mut dst.data[y * w..(y + 1) * w];
        for (x, out) in d.iter_mut().enumerate() {
            *out = if x >= r && x + r < w {
                // Interior: no clamping.
                s[x - r..=x + r].iter().zip(k).map(|(v, kv)| kv * v).sum()
            } else {
                let mut acc = 0.0f32;
                for (j, &kv) in k.iter().enumerate() {
                    let i = (x + j).saturating_sub(r).min(w - 1);
                    acc += kv * s[i];
                }
                acc
            };
        }
    }
}

fn conv_v(src: &Plane, dst: &mut Plane, k: &[f32]) {
    let (w, h) = (src.w, src.h);
    let r = (k.len() / 2) as isize;
    let last = h as isize - 1;
    for y in 0..h {
        let d = &mut dst.data[y * w..(y + 1) * w];
        d.fill(0.0);
        for (j, &kv) in k.iter().enumerate() {
            let sy = (y as isize + j as isize - r).clamp(0, last) as usize;
            let s = &src.data[sy * w..(sy + 1) * w];
            for (o, &v) in d.iter_mut().zip(s) {
                *o += kv * v;
            }
        }
    }
}

/// Rows per band in the banded filters: enough to amortise the halo, small enough that
/// a band's planes are a few megabytes at 3840 pixels wide.
const BAND: usize = 256;

/// Rows a Gaussian of `sigma` reaches (kernel radius, or the three boxes' total).
fn gaussian_reach(sigma: f32) -> usize {
    (3.0 * sigma).ceil() as usize + 2
}

/// The band layout: (first row read, first row kept, end of rows kept, end of rows
/// read) for bands of `BAND` rows with `halo` extra rows read on each side.
fn bands(h: usize, halo: usize) -> impl Iterator<Item = (usize, usize, usize, usize)> {
    (0..h).step_by(BAND).map(move |y0| {
        let y1 = (y0 + BAND).min(h);
        (y0.saturating_sub(halo), y0, y1, (y1 + halo).min(h))
    })
}

/// Gaussian blur of `p` handed out band by band: `f(y0, rows)` receives the blurred
/// rows from `y0` on. Each band is blurred with enough rows around it that the rows
/// handed out are those of a whole-image blur (up to rounding), so memory is a band, not
/// a second and third copy of the plane.
pub fn gaussian_bands(p: &Plane, sigma: f32, mut f: impl FnMut(usize, &[f32])) {
    let w = p.w;
    let mut scratch = Plane::new(1, 1);
    for (a, y0, y1, b) in bands(p.h, gaussian_reach(sigma)) {
        let mut band = Plane {
            w,
            h: b - a,
            data: p.data[a * w..b * w].to_vec(),
        };
        gaussian(&mut band, sigma, &mut scratch);
        f(y0, &band.data[(y0 - a) * w..(y1 - a) * w]);
    }
}

/// [`self_guided`] in place, band by band (its reach is 2r rows), so it needs a few
/// band-sized planes instead of three more full-size ones.
pub fn self_guided_banded(p: &mut Plane, r: usize, eps: f32) {
    let w = p.w;
    let mut scratch = Plane::new(1, 1);
    // A band's result is written back only after the next band has read its input,
    // whose halo overlaps the previous band's rows.
    let mut pending: Option<(usize, Vec<f32>)> = None;
    for (a, y0, y1, b) in bands(p.h, 2 * r + 1) {
        let mut band = Plane {
            w,
            h: b - a,
            data: p.data[a * w..b * w].to_vec(),
        };
        if let Some((py, rows)) = pending.take() {
            p.data[py * w..py * w + rows.len()].copy_from_slice(&rows);
        }
        self_guided(&mut band, r, eps, &mut scratch);
        pending = Some((y0, band.data[(y0 - a) * w..(y1 - a) * w].to_vec()));
    }
    if let Some((py, rows)) = pending {
        p.data[py * w..py * w + rows.len()].copy_from_slice(&rows);
    }
}

/// The self-guided filter of He, Sun and Tang (2010): an edge-preserving smoothing
/// whose cost does not depend on the radius. Where the local variance is well below
/// `eps` (skin texture, sensor noise) the output is the local mean; where it is well
/// above (edges: eyelids, nostrils, the jaw line) the input passes through. In place;
/// uses three scratch planes' worth of memory.
pub fn self_guided(p: &mut Plane, r: usize, eps: f32, scratch: &mut Plane) {
    if r == 0 {
        return;
    }
    let mut mean = p.clone();
    box_mean(&mut mean, r, scratch);
    let mut sq = Plane {
        w: p.w,
        h: p.h,
        data: p.data.iter().map(|v| v * v).collect(),
    };
    box_mean(&mut sq, r, scratch);
    // a = var / (var + eps) into `sq`, b = mean (1 - a) into `mean`.
    for (m, s) in mean.data.iter_mut().zip(sq.data.iter_mut()) {
        let var = (*s - *m * *m).max(0.0);
        let a = var / (var + eps);
        *s = a;
        *m *= 1.0 - a;
    }
    box_mean(&mut sq, r, scratch);
    box_mean(&mut mean, r, scratch);
    for ((v, a), b) in p.data.iter_mut().zip(&sq.data).zip(&mean.data) {
        *v = a * *v + b;
    }
}

/// The guided filter's linear coefficients for smoothing `p` along the edges of the
/// guide `g`: the output is `a * g + b`. Returned rather than applied so a mask made at
/// low resolution can be lifted to full resolution with the full-resolution guide (He
/// and Sun's "fast guided filter").
pub fn guided_coefficients(g: &Plane, p: &Plane, r: usize, eps: f32) -> (Plane, Plane) {
    let mut scratch = Plane::new(g.w, g.h);
    let mut mg = g.clone();
    box_mean(&mut mg, r, &mut scratch);
    let mut mp = p.clone();
    box_mean(&mut mp, r, &mut scratch);
    let mut gp = Plane {
        w: g.w,
        h: g.h,
        data: g.data.iter().zip(&p.data).map(|(a, b)| a * b).collect(),
    };
    box_mean(&mut gp, r, &mut scratch);
    let mut gg = Plane {
        w: g.w,
        h: g.h,
        data: g.data.iter().map(|a| a * a).collect(),
    };
    box_mean(&mut gg, r, &mut scratch);
    let mut a = Plane::new(g.w, g.h);
    let mut b = Plane::new(g.w, g.h);
    for i in 0..g.data.len() {
        let var = (gg.data[i] - mg.data[i] * mg.data[i]).max(0.0);
        let cov = gp.data[i] - mg.data[i] * mp.data[i];
        let ai = cov / (var + eps);
        a.data[i] = ai;
        b.data[i] = mp.data[i] - ai * mg.data[i];
    }
    box_mean(&mut a, r, &mut scratch);
    box_mean(&mut b, r, &mut scratch);
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ramp(w: usize, h: usize) -> Plane {
        Plane {
            w,
            h,
            data: (0..w * h)
                .map(|i| ((i * 37) % 101) as f32 / 100.0)
                .collect(),
        }
    }

    #[test]
    fn gaussian_keeps_a_constant_plane_and_the_mean() {
        let mut s = Plane::new(1, 1);
        let mut flat = Plane {
            w: 40,
            h: 30,
            data: vec![0.25; 1200],
        };
        gaussian(&mut flat, 5.0, &mut s);
        assert!(flat.data.iter().all(|v| (v - 0.25).abs() < 1e-6));
        for sigma in [0.7, 1.5, 2.0, 3.3, 8.0] {
            let mut p = ramp(64, 48);
            let before: f64 = p.data.iter().map(|&v| v as f64).sum();
            gaussian(&mut p, sigma, &mut s);
            let after: f64 = p.data.iter().map(|&v| v as f64).sum();
            assert!((before - after).abs() / before < 0.02, "sigma {sigma}");
        }
    }

    #[test]
    fn gaussian_spreads_an_impulse_with_the_requested_width() {
        let mut s = Plane::new(1, 1);
        for sigma in [1.0f32, 4.0, 10.0] {
            let n = 121;
            let mut p = Plane::new(n, 1);
            p.data[60] = 1.0;
            gaussian(&mut p, sigma, &mut s);
            let var: f32 = p
                .data
                .iter()
                .enumerate()
                .map(|(i, v)| v * ((i as f32 - 60.0).powi(2)))
                .sum();
            let measured = var.sqrt();
            assert!(
                (measured - sigma).abs() < 0.12 * sigma + 0.1,
                "{sigma} vs {measured}"
            );
        }
    }

    #[test]
    fn banded_filters_match_the_whole_plane_ones() {
        let p = ramp(97, 700);
        let mut s = Plane::new(1, 1);
        for sigma in [1.2f32, 6.0] {
            let mut whole = p.clone();
            gaussian(&mut whole, sigma, &mut s);
            let mut banded = Plane::new(p.w, p.h);
            gaussian_bands(&p, sigma, |y0, rows| {
                banded.data[y0 * p.w..y0 * p.w + rows.len()].copy_from_slice(rows)
            });
            let worst = whole
                .data
                .iter()
                .zip(&banded.data)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f32::max);
            assert!(worst < 1e-4, "sigma {sigma}: {worst}");
        }
        let mut whole = p.clone();
        self_guided(&mut whole, 1, 0.001, &mut s);
        let mut banded = p.clone();
        self_guided_banded(&mut banded, 1, 0.001);
        let worst = whole
            .data
            .iter()
            .zip(&banded.data)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        assert!(worst < 1e-4, "self-guided: {worst}");
    }

    #[test]
    fn self_guided_filter_smooths_texture_and_keeps_a_strong_edge() {
        let (w, h) = (64, 32);
        let mut p = Plane::new(w, h);
        for y in 0..h {
            for x in 0..w {
                let base = if x < 32 { 0.2 } else { 0.8 };
                let tex = if (x + y) % 2 == 0 { 0.01 } else { -0.01 };
                p.data[y * w + x] = base + tex;
            }
        }
        let mut s = Plane::new(1, 1);
        self_guided(&mut p, 3, 0.02f32.powi(2), &mut s);
        // Texture gone inside the flat halves...
        assert!((p.at(10, 10) - p.at(11, 10)).abs() < 0.005);
        // ... the edge is still an edge.
        assert!(p.at(30, 10) < 0.3 && p.at(33, 10) > 0.7);
    }
}
