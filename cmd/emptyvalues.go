package cmd

import "github.com/spf13/pflag"

// refuseEmpty reports the first flag given an empty value, as bad input:
// an empty value is most often a script's unset variable, and taking it
// as "none" would drop a deadline, a backoff, a grace or a budget in
// silence. A repeatable flag refuses an empty value in any of its uses.
func refuseEmpty(fs *pflag.FlagSet) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		if err != nil || f.NoOptDefVal != "" {
			return // a flag that takes no value, such as --quiet
		}
		var values []string
		if s, ok := f.Value.(pflag.SliceValue); ok {
			values = s.GetSlice() // not String, which writes them as CSV
		} else {
			values = []string{f.Value.String()}
		}
		for _, v := range values {
			if v == "" {
				err = usagef("", "--%s: must not be empty", f.Name)
				return
			}
		}
	})
	return err
}
