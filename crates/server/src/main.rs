use clap::Parser;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    prettyscore_server::app::cli::run(prettyscore_server::app::cli::Cli::parse()).await
}
