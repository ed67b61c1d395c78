//! What the server would otherwise read from the process's environment,
//! given by its caller (the command line reads it; a library must not):
//! the host's name for the server's default name, libpq's variables for
//! PostgreSQL (`PGPASSWORD`, `PGSSLMODE`, `PGSSLROOTCERT`, `PGSSLCERT`,
//! `PGSSLKEY`) and the home folder whose `.postgresql` holds libpq's
//! default certificate files. Empty by default: a server embedded in
//! another program sees only what that program gives it.

use std::path::PathBuf;

/// See the module docs.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Environment {
    /// The host's name (`HOSTNAME`), when `/proc` does not give it.
    pub hostname: Option<String>,
    /// libpq's variables that are set, by name.
    pub libpq: Vec<(String, String)>,
    /// The home folder (`HOME`).
    pub home: Option<PathBuf>,
}

impl Environment {
    /// The libpq variables the server reads.
    pub const LIBPQ: [&'static str; 5] = [
        "PGPASSWORD",
        "PGSSLMODE",
        "PGSSLROOTCERT",
        "PGSSLCERT",
        "PGSSLKEY",
    ];

    /// The value of libpq variable `name`, when set and not empty.
    pub fn libpq(&self, name: &str) -> Option<&str> {
        self.libpq
            .iter()
            .rev()
            .find(|(k, v)| k == name && !v.is_empty())
            .map(|(_, v)| v.as_str())
    }
}

/// The password stays out of logs.
impl std::fmt::Debug for Environment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.libpq.iter().map(|(k, _)| k.as_str()).collect();
        f.debug_struct("Environment")
            .field("hostname", &self.hostname)
            .field("libpq", &names)
            .field("home", &self.home)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_read_but_never_shown() {
        let env = Environment {
            libpq: vec![
                ("PGPASSWORD".into(), "hunter2".into()),
                ("PGSSLMODE".into(), String::new()),
            ],
            ..Environment::default()
        };
        assert_eq!(env.libpq("PGPASSWORD"), Some("hunter2"));
        assert_eq!(env.libpq("PGSSLMODE"), None);
        assert!(!format!("{env:?}").contains("hunter2"));
    }
}
