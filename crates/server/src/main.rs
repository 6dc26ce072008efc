use clap::Parser;

/// mimalloc gives freed memory back to the system: after a burst of uploads
/// the process shrinks again, where glibc's allocator kept hundreds of MB.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    prettyscore_server::app::cli::run(prettyscore_server::app::cli::Cli::parse()).await
}

/// The allocator's settings that make the process shrink back after a flood
/// (README, memory-flood.sh), set in the binary so that a deployment started
/// without `scripts/run.sh` gets them too: freed memory is purged at once
/// (`purge_delay` 0, not 1 s) and arenas are committed as they are used
/// (`arena_eager_commit` 0), so that a purge really returns the pages.
///
/// mimalloc reads its options once, in its own constructor (priority 101),
/// and reserves its first arena at the first allocation; so they are set in
/// a constructor that runs before it, which must not allocate. An operator's
/// `MIMALLOC_*` variable still wins. (Elsewhere than on Linux, set
/// `MIMALLOC_PURGE_DELAY=0 MIMALLOC_ARENA_EAGER_COMMIT=0` in the service's
/// environment for the same effect.)
#[cfg(target_os = "linux")]
mod allocator_defaults {
    use std::ffi::{CStr, c_char, c_int, c_long};

    unsafe extern "C" {
        fn getenv(name: *const c_char) -> *const c_char;
        fn mi_option_set(option: c_int, value: c_long);
    }

    // Positions in mimalloc v3's `mi_option_t` (include/mimalloc.h). The
    // `allocator_defaults_are_built_in` test reads them back by name.
    const ARENA_EAGER_COMMIT: c_int = 4;
    const PURGE_DELAY: c_int = 15;

    const DEFAULTS: [(c_int, &CStr, c_long); 2] = [
        (PURGE_DELAY, c"MIMALLOC_PURGE_DELAY", 0),
        (ARENA_EAGER_COMMIT, c"MIMALLOC_ARENA_EAGER_COMMIT", 0),
    ];

    extern "C" fn set() {
        for (option, variable, value) in DEFAULTS {
            // SAFETY: both take plain C values; `getenv` reads the
            // environment libc set up before any constructor runs.
            unsafe {
                if getenv(variable.as_ptr()).is_null() {
                    mi_option_set(option, value);
                }
            }
        }
    }

    #[used]
    #[unsafe(link_section = ".init_array.00100")]
    static SET: extern "C" fn() = set;
}
