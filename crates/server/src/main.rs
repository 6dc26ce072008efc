use clap::Parser;

/// mimalloc gives freed memory back to the system: after a burst of uploads
/// the process shrinks again, where glibc's allocator kept hundreds of MB.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    prettyscore_server::app::cli::run(prettyscore_server::app::cli::Cli::parse()).await
}
