//! One module per subcommand.

pub mod analysis;
pub mod bench;
pub mod check;
pub mod completions;
pub mod evaluate;
pub mod exit;
pub mod explain;
pub mod gtp;
pub mod input;
pub mod judge;
pub mod logs;
pub mod manpages;
pub mod r#match;
pub mod member;
pub mod names;
pub mod predict;
pub mod progress;
pub mod rules;
pub mod score;
pub mod serve;
pub mod train;
