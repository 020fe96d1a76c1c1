/*
 * Our output piped into another program, without a shell (see
 * pipe_to.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/diag.h"
#include "pipe_to.h"

extern char **environ;

/* Wait for pid, retrying when a signal interrupts; its status or -1. */
static int wait_for(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

int pipe_to(const char *place, const char *const argv[], const char *hint,
	    void (*emit)(FILE *in, const void *arg), const void *arg)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	sigset_t def;
	int fds[2], err, status;
	bool write_failed;
	pid_t pid;
	FILE *in;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return error_errno("%s: cannot make a pipe to '%s'", place, argv[0]);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[0], STDIN_FILENO);
	/* SIGPIPE is ignored here while we write (below); the program
	 * gets its default back */
	posix_spawnattr_init(&attr);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
	err = posix_spawnp(&pid, argv[0], &fa, &attr, (char *const *)argv,
			   environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close(fds[0]);
	if (err) {
		close(fds[1]);
		if (err == ENOENT)
			return error("%s: cannot run '%s': it is not installed%s%s",
				     place, argv[0], hint ? "; " : "", hint ? hint : "");
		return error("%s: cannot run '%s': %s", place, argv[0],
			     strerror(err));
	}
	in = fdopen(fds[1], "w");
	if (!in) {
		error_errno("%s: cannot write to '%s'", place, argv[0]);
		close(fds[1]);
		wait_for(pid, &status);
		return -1;
	}
	/* If the program stops reading, a write fails with EPIPE instead
	 * of killing us; its exit status then says what went wrong. */
	sigaction(SIGPIPE, &ign, &old);
	emit(in, arg);
	write_failed = ferror(in) != 0;
	write_failed |= fclose(in) != 0;
	err = errno;
	sigaction(SIGPIPE, &old, NULL);
	if (wait_for(pid, &status) < 0)
		return error_errno("%s: cannot wait for '%s'", place, argv[0]);
	if (WIFSIGNALED(status))
		return error("%s: '%s' was killed by signal %d (%s)", place,
			     argv[0],
			     WTERMSIG(status), strsignal(WTERMSIG(status)));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return error("%s: '%s' failed with exit status %d", place,
			     argv[0],
			     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (write_failed)
		return error("%s: cannot write to '%s': %s", place, argv[0],
			     strerror(err));
	return 0;
}
