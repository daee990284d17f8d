/** The JUnit reader that turns pytest's report into one vitest test per case (helpers/junit.ts). */
import { describe, expect, it } from "vitest";
import { parseJunitXml, unescapeXml } from "../helpers/junit.js";

// Written by pytest 9 (-o junit_family=xunit2) for a passing, a failing, two parametrized, an erroring and a skipped case.
const REPORT = `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="1" failures="1" skipped="1" tests="6">\
<testcase classname="test_demo" name="test_ok" time="0.001" />\
<testcase classname="test_demo" name="test_bad" time="0.008"><failure message="AssertionError: one &lt;is&gt; not &quot;two&quot; &amp; more&#10;assert 1 == 2">def test_bad():
&gt;       assert 1 == 2

test_demo.py:4: AssertionError</failure></testcase>\
<testcase classname="test_demo" name="test_p[a/b]" time="0.001" /><testcase classname="test_demo" name="test_p[]" time="0.003" />\
<testcase classname="test_demo" name="test_err" time="0.000"><failure message="boom">call</failure><error message="failed on teardown">teardown</error></testcase>\
<testcase classname="test_demo.TestGroup" name="test_skip" time="0.000"><skipped type="pytest.skip" message="nope">test_demo.py:8: nope</skipped></testcase>\
</testsuite></testsuites>`;

describe("parseJunitXml", () => {
  it("reads every case with its outcome, message and text", () => {
    const cases = parseJunitXml(REPORT);
    expect(cases.map((c) => [c.classname, c.name, c.outcome])).toEqual([
      ["test_demo", "test_ok", "passed"],
      ["test_demo", "test_bad", "failed"],
      ["test_demo", "test_p[a/b]", "passed"],
      ["test_demo", "test_p[]", "passed"],
      ["test_demo", "test_err", "error"],
      ["test_demo.TestGroup", "test_skip", "skipped"],
    ]);
    expect(cases[1].message).toBe('AssertionError: one <is> not "two" & more\nassert 1 == 2');
    expect(cases[1].details).toBe("def test_bad():\n>       assert 1 == 2\n\ntest_demo.py:4: AssertionError");
    expect(cases[0].message).toBeUndefined();
    // A failing call and a teardown error: the case is an error, with both reports.
    expect(cases[4].message).toBe("boom\nfailed on teardown");
    expect(cases[5].message).toBe("nope");
  });

  it("an empty report has no cases; a case without a name is refused", () => {
    expect(parseJunitXml('<?xml version="1.0"?><testsuites><testsuite tests="0"></testsuite></testsuites>')).toEqual([]);
    expect(() => parseJunitXml('<testcase classname="x" />')).toThrow(/without a name/);
  });

  it("unescapes XML's entities and character references", () => {
    expect(unescapeXml("&lt;a&gt; &amp;amp; &quot;&apos; &#10;&#x41;")).toBe("<a> &amp; \"' \nA");
  });
});
