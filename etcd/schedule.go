package etcd

import (
	"strings"
	"time"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/robfig/cron/v3"
)

// cronFields are the five fields of a standard cron expression, each with
// robfig/cron's parser of that field alone: the same grammar and bounds
// as cron.ParseStandard, which parses them together.
var cronFields = []struct {
	name   string
	parser cron.Parser
}{
	{"minute", cron.NewParser(cron.Minute)},
	{"hour", cron.NewParser(cron.Hour)},
	{"day of month", cron.NewParser(cron.Dom)},
	{"month", cron.NewParser(cron.Month)},
	{"day of week", cron.NewParser(cron.Dow)},
}

// MaxScheduleLength bounds a schedule's text, in bytes. Neither the API
// server nor robfig/cron bounds it; every set of activations has a
// spelling of 391 characters at most (each field listing every value it
// allows, once: minutes 0-59 take 169, hours 61, days of the month 83,
// months by name 47, days of the week by name 27, and four spaces), so
// 1024, over two and a half times that, leaves room for any padding a
// hand-written schedule has.
const MaxScheduleLength = 1024

// scheduleReference is where the check that a schedule fires starts: a
// fixed time, so the answer never depends on the clock. robfig/cron's
// Next looks five years ahead, and 2000 to 2005 hold two leap years, so a
// schedule of February 29 fires.
var scheduleReference = time.Date(2000, time.January, 1, 0, 0, 0, 0, time.UTC)

// ValidateSchedule checks a CronJob schedule as Kubernetes does: the API
// server and kube-controller-manager's CronJob controller parse it with
// robfig/cron/v3's standard parser (cron.ParseStandard: five fields of
// values, names, ranges, steps and lists, or a descriptor such as
// "@daily"), and the API server refuses any schedule containing "TZ"
// ("cannot use TZ or CRON_TZ in schedule, use timeZone field instead").
// Beyond that it refuses:
//
//   - a text longer than MaxScheduleLength;
//   - what is not printable ASCII (a cron expression is ASCII, fields
//     separated by spaces);
//   - "@every", whose activations are relative to the controller's start;
//   - a schedule that never fires, such as "0 3 30 2 *" (February 30) or
//     "0 0 31 4 *": the parser accepts it, and the CronJob controller
//     errors on it at every sync instead of starting a Job (its
//     mostRecentScheduleTime: "time difference between two schedules is
//     less than 1 second"). A schedule fires when robfig/cron finds an
//     activation within five years of a fixed time (2000-01-01 UTC), so
//     the check needs no clock.
//
// Each of the five fields is checked on its own: several bad fields give
// one refusal each (see invalid.List), minute first; the firing check
// runs only when every field parses.
func ValidateSchedule(field, s string) (err error) {
	switch {
	case s == "":
		return invalid.Errorf(field, s, "must not be empty (e.g. \"0 3 * * *\" or \"@daily\")")
	case len(s) > MaxScheduleLength:
		return invalid.Errorf(field, s, "is longer than %d bytes: every schedule has a spelling of at most 391 (each field listing each of its values once)", MaxScheduleLength)
	case strings.IndexFunc(s, func(r rune) bool { return r < ' ' || r > '~' }) >= 0:
		return invalid.Errorf(field, s, "must be printable ASCII, its fields separated by spaces (e.g. \"0 3 * * *\")")
	case strings.Contains(s, "TZ"):
		// Before the parser, which reads a TZ= prefix with
		// time.LoadLocation (the system's time zone files) and panics
		// on some ("TZ=0").
		return invalid.Errorf(field, s, "cannot use TZ or CRON_TZ in schedule (the API server refuses it; the schedule runs in kube-controller-manager's time zone)")
	case strings.HasPrefix(s, "@every"):
		return invalid.Errorf(field, s, "must not be @every: its activations are relative to when kube-controller-manager started; use a cron expression or one of @yearly, @monthly, @weekly, @daily, @hourly")
	}
	// robfig/cron panics on inputs it does not expect; Kubernetes
	// recovers the same way (parsers.ParseCronScheduleWithPanicRecovery).
	defer func() {
		if r := recover(); r != nil {
			err = invalid.Errorf(field, s, "is not a schedule robfig/cron can parse")
		}
	}()
	if !strings.HasPrefix(s, "@") {
		parts := strings.Fields(s)
		if len(parts) != len(cronFields) {
			return invalid.Errorf(field, s, "must have five fields (minute hour day-of-month month day-of-week), e.g. \"0 3 * * *\"")
		}
		var c invalid.Collector
		for i, p := range parts {
			if _, err := cronFields[i].parser.Parse(p); err != nil {
				c.Addf(field, s, "%s field %q: %v", cronFields[i].name, p, err)
			}
		}
		if err := c.Err(); err != nil {
			return err
		}
	}
	sched, err := cron.ParseStandard(s)
	if err != nil {
		return invalid.Errorf(field, s, "must be a five-field cron expression or one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly: %v", err)
	}
	if sched.Next(scheduleReference).IsZero() {
		return invalid.Errorf(field, s, "never fires: no date matches its day of month and month (kube-controller-manager's CronJob controller errors on such a schedule instead of starting Jobs)")
	}
	return nil
}
