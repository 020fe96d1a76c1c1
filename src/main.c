/*
 * cganalyze: options -> pipeline -> exit status. The only place that
 * exits and the only owner of stdout.
 */
#include <stdio.h>
#include <stdlib.h>

#include "analyze.h"
#include "diag.h"
#include "options.h"
#include "progress.h"

int main(int argc, char **argv)
{
	struct options o;
	int status;

	switch (options_parse(&o, argc, argv, stdout)) {
	case OPTIONS_OK:
		break;
	case OPTIONS_EXIT_OK:
		options_release(&o);
		return 0;
	case OPTIONS_USAGE:
	default:
		options_release(&o);
		return 2;
	}
	if (!o.no_progress && !o.resolve_mode)
		progress_enable_on_tty();
	status = o.resolve_mode ? resolve_run(&o, stdin, stdout)
				: analyze_run(&o, stdout);
	options_release(&o);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		error_errno("cannot write the output");
		return 1;
	}
	return status;
}
