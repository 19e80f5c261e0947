/* clock: monotonic time in seconds, for timeouts and the Time lines. */
#ifndef RAVEL_BASE_CLOCK_H
#define RAVEL_BASE_CLOCK_H

double base_now(void);

#endif
