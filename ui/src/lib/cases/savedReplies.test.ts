import { describe, expect, it } from "vitest";
import { hashForButton, hashQueryAt, moveHighlight, replaceRange } from "./savedReplies";

describe("hashQueryAt", () => {
  it("finds a # typed at the start of the text", () => {
    expect(hashQueryAt("#refu", 5)).toEqual({ start: 0, query: "refu" });
  });

  it("finds a # typed after a space or a line break", () => {
    expect(hashQueryAt("Hello #ref", 10)).toEqual({ start: 6, query: "ref" });
    expect(hashQueryAt("Hello\n#", 7)).toEqual({ start: 6, query: "" });
  });

  it("ignores a # inside a word, like an order number", () => {
    expect(hashQueryAt("order A#12", 10)).toBeNull();
  });

  it("ends at the caret, so a space typed after the query closes the picker", () => {
    expect(hashQueryAt("#refund now", 11)).toBeNull();
    expect(hashQueryAt("#refund now", 4)).toEqual({ start: 0, query: "ref" });
  });

  it("finds nothing when there is no #", () => {
    expect(hashQueryAt("Thanks", 6)).toBeNull();
  });
});

describe("replaceRange", () => {
  it("puts the reply in place of the #query and the caret after it", () => {
    expect(replaceRange("Hi #ref!", 3, 7, "Your refund is on its way.")).toEqual({ text: "Hi Your refund is on its way.!", caret: 29 });
  });
});

describe("hashForButton", () => {
  it("types a # at the caret when it starts a word", () => {
    expect(hashForButton("Hi ", 3)).toEqual({ text: "Hi #", caret: 4 });
  });

  it("puts a space first when the caret is in a word", () => {
    expect(hashForButton("Hi", 2)).toEqual({ text: "Hi #", caret: 4 });
  });
});

describe("moveHighlight", () => {
  it("moves down and wraps from the last row to the first", () => {
    expect(moveHighlight(1, 1, 3)).toBe(2);
    expect(moveHighlight(2, 1, 3)).toBe(0);
  });

  it("moves up and wraps from the first row to the last", () => {
    expect(moveHighlight(0, -1, 3)).toBe(2);
  });

  it("stays at 0 when there are no rows", () => {
    expect(moveHighlight(0, 1, 0)).toBe(0);
  });
});
