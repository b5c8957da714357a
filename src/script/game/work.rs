//! Host work on a script value between script calls (hashing it, copying it), counted so that
//! a large value looks at the command's time ([`crate::cancel::calls_until`]) part-way and
//! stops there, as a script call does at its clocks.

/// The command's time ran out (or Ctrl-C) while the host worked on a value.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Stopped;

/// The work (values, cells, pits) done on one value since the last look at the command's time.
pub(super) struct Meter {
    since_look: u64,
    /// Work between two looks.
    every: u64,
    /// Whether it looks at all (work that must finish: a saved game's checksum).
    stoppable: bool,
}

impl Meter {
    /// A meter that looks at the command's time every `every` of work.
    pub(super) fn stoppable(every: u64) -> Meter {
        Meter {
            since_look: 0,
            every,
            stoppable: true,
        }
    }

    /// A meter that never stops the work.
    pub(super) fn unstoppable() -> Meter {
        Meter {
            since_look: 0,
            every: u64::MAX,
            stoppable: false,
        }
    }

    /// Counts `work`; past the command's time (or on Ctrl-C) once `every` was counted since
    /// the last look, [`Stopped`].
    pub(super) fn add(&mut self, work: u64) -> Result<(), Stopped> {
        self.since_look = self.since_look.saturating_add(work);
        if self.since_look < self.every {
            return Ok(());
        }
        self.since_look = 0;
        if self.stoppable && crate::cancel::calls_stopped() {
            Err(Stopped)
        } else {
            Ok(())
        }
    }
}
