/* Excluding concurrent runs that write: one lock file per journal directory. */
#ifndef ROCECTL_LOCK_H
#define ROCECTL_LOCK_H

#include "rocectl/err.h"

/* Take DIR/.lock (created, flock'ed, our pid written into it).  -EBUSY with a message
 * naming the holder's pid when another run holds it.  Returns the fd to keep open. */
int rc_lock_take(const char *dir, int *fd, struct rc_err *err);
void rc_lock_release(int fd);

#endif
