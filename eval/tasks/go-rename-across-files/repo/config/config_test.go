package config

import "testing"

func TestParseCfg(t *testing.T) {
	c, err := ParseCfg("# comment\nname = app\n\nport=80\n")
	if err != nil {
		t.Fatal(err)
	}
	if c.Values["name"] != "app" || c.Values["port"] != "80" {
		t.Errorf("ParseCfg = %v", c.Values)
	}
	if _, err := ParseCfg("oops"); err == nil {
		t.Error("ParseCfg(oops): no error")
	}
}
