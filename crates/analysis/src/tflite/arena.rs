//! The tensor arena: activation buffers reused across operators and runs, so that a run
//! does not page-fault fresh memory for every tensor.

/// A pooled activation buffer and how many of its values have ever been written (its
/// longest length so far), so that it can be handed out again without clearing them.
struct Pooled {
    v: Vec<f32>,
    init: usize,
}

/// Buffer pools not in use by any thread (at most `MAX_SPARE_POOLS`).
static SPARE_POOLS: std::sync::Mutex<Vec<Vec<Pooled>>> = std::sync::Mutex::new(Vec::new());
const MAX_SPARE_POOLS: usize = 4;

/// Frees the spare activation buffers (tens of MB after a burst of analyses).
/// The next run allocates afresh; a server calls this when it has been idle.
/// Returns the bytes freed.
pub fn release_spare_buffers() -> usize {
    let pools = std::mem::take(&mut *SPARE_POOLS.lock().unwrap_or_else(|e| e.into_inner()));
    pools
        .iter()
        .flatten()
        .map(|pooled| pooled.v.capacity() * std::mem::size_of::<f32>())
        .sum()
}

thread_local! {
    /// Activation buffers reused across operators and runs on this thread, so a run
    /// does not page-fault fresh memory for every tensor.
    static POOL: std::cell::RefCell<Vec<Pooled>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Buffers handed out by `alloc_overwritten` during this run: address and written
    /// length, so `release` can pool them with their full written length.
    static LENT: std::cell::RefCell<Vec<(usize, usize)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A buffer of `n` values all set to `fill`, from the pool when possible.
pub(crate) fn alloc(n: usize, fill: f32) -> Vec<f32> {
    let mut v = alloc_raw(n).v;
    v.clear();
    v.resize(n, fill);
    v
}

/// A buffer of `n` values whose contents the caller overwrites entirely (stale values
/// from the pool are never read, so there is no need to clear them).
pub(crate) fn alloc_overwritten(n: usize) -> Vec<f32> {
    let Pooled { mut v, init } = alloc_raw(n);
    if init >= n {
        // SAFETY: the first `init` values of this buffer were written while it was in use
        // before (its longest length), truncation leaves them in place, and every bit
        // pattern is a valid f32.
        unsafe { v.set_len(n) };
    } else {
        // SAFETY: as above for the first `init` values; only the rest is cleared.
        unsafe { v.set_len(init) };
        v.resize(n, 0.0);
    }
    let written = init.max(n);
    LENT.with(|l| l.borrow_mut().push((v.as_ptr() as usize, written)));
    v
}

/// The pooled buffer with the smallest capacity of at least `n` values.
fn alloc_raw(n: usize) -> Pooled {
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        let best = (0..p.len())
            .filter(|&i| p[i].v.capacity() >= n)
            .min_by_key(|&i| p[i].v.capacity());
        best.map(|i| p.swap_remove(i))
    })
    .unwrap_or(Pooled {
        v: Vec::new(),
        init: 0,
    })
}

pub(crate) fn release(v: Vec<f32>) {
    let addr = v.as_ptr() as usize;
    let lent = LENT.with(|l| {
        let mut l = l.borrow_mut();
        let i = l.iter().rposition(|&(a, _)| a == addr)?;
        Some(l.swap_remove(i).1)
    });
    let init = lent.unwrap_or(0).max(v.len());
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        if p.len() < 64 {
            p.push(Pooled { v, init });
        }
    });
}

/// Takes this thread's pool for a run.
pub(crate) fn begin_run() {
    // This thread's buffers come from (and go back to) a small shared stash, so a
    // short-lived helper thread starts with warm buffers and an idle thread keeps none.
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        if p.is_empty()
            && let Some(spare) = SPARE_POOLS.lock().unwrap_or_else(|e| e.into_inner()).pop()
        {
            *p = spare;
        }
    });
    // Nothing is lent before the run starts (even if an earlier run panicked).
    LENT.with(|l| l.borrow_mut().clear());
}

/// Gives this thread's pool back after a run.
pub(crate) fn end_run() {
    // Buffers still lent out now are the outputs, which leave with the caller.
    LENT.with(|l| l.borrow_mut().clear());
    POOL.with(|p| {
        let pool = std::mem::take(&mut *p.borrow_mut());
        let mut spare = SPARE_POOLS.lock().unwrap_or_else(|e| e.into_inner());
        if spare.len() < MAX_SPARE_POOLS {
            spare.push(pool);
        }
    });
}
