//! One module per subcommand.

pub mod bench;
pub mod check;
pub mod files;
pub mod rules;
pub mod score;
