//! One module per subcommand.

pub mod bench;
pub mod check;
pub mod explain;
pub mod files;
pub mod gtp;
pub mod r#match;
pub mod rules;
pub mod score;
pub mod serve;
