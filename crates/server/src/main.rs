use clap::Parser;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    prettyscore_server::cli::run(prettyscore_server::cli::Cli::parse()).await
}
