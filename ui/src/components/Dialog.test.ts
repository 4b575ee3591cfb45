import { describe, expect, it, vi } from "vitest";
import { createRawSnippet } from "svelte";
import { fireEvent, render, screen } from "@testing-library/svelte";
import Dialog from "./Dialog.svelte";

// The dialog's content: a title and one button, as a confirmation has.
const children = createRawSnippet(() => ({
  render: () => `<div><h3 id="title">Delete the skill?</h3><button type="button">Delete</button></div>`,
}));

function open(onclose?: () => void, backdropCloses?: boolean) {
  const result = render(Dialog, { labelledby: "title", testid: "dialog", onclose, backdropCloses, children });
  return { ...result, dialog: screen.getByTestId("dialog") as HTMLDialogElement };
}

// A mouse click as a person makes it: pressed and released on the same element.
async function clickOn(element: Element) {
  await fireEvent.mouseDown(element);
  await fireEvent.click(element);
}

// What the browser fires on a dialog when Escape is pressed in it: the dialog closes unless the
// event's default is prevented. True when the dialog let the browser close it.
function pressEscape(dialog: HTMLDialogElement): boolean {
  return dialog.dispatchEvent(new Event("cancel", { cancelable: true }));
}

describe("Dialog", () => {
  it("opens as a modal native dialog labelled by its title", () => {
    const { dialog } = open();

    expect(dialog.tagName).toBe("DIALOG");
    expect(dialog.open).toBe(true);
    expect(dialog.getAttribute("aria-labelledby")).toBe("title");
  });

  it("says it is an alert dialog when it asks a question that must be answered", () => {
    render(Dialog, { role: "alertdialog", labelledby: "title", testid: "dialog", children });

    expect(screen.getByRole("alertdialog").getAttribute("aria-labelledby")).toBe("title");
  });

  it("asks to close on Escape when it has onclose", () => {
    const onclose = vi.fn();
    const { dialog } = open(onclose);

    const closedByTheBrowser = pressEscape(dialog);

    expect(onclose).toHaveBeenCalledOnce();
    expect(closedByTheBrowser).toBe(false);
  });

  it("stays open on Escape when it has no onclose, because it must be answered", () => {
    const { dialog } = open();

    const closedByTheBrowser = pressEscape(dialog);

    expect(closedByTheBrowser).toBe(false);
    expect(dialog.open).toBe(true);
  });

  it("asks to close on a click on its backdrop", async () => {
    const onclose = vi.fn();
    const { dialog } = open(onclose);

    await clickOn(dialog);

    expect(onclose).toHaveBeenCalledOnce();
  });

  it("stays open on a click on its backdrop when it holds a form (backdropCloses false)", async () => {
    const onclose = vi.fn();
    const { dialog } = open(onclose, false);

    await clickOn(dialog);

    expect(onclose).not.toHaveBeenCalled();
  });

  it("stays open on a click inside it", async () => {
    const onclose = vi.fn();
    open(onclose);
    const inside = screen.getByText("Delete the skill?");

    await clickOn(inside);

    expect(onclose).not.toHaveBeenCalled();
  });

  it("stays open when a press inside is released on the backdrop", async () => {
    const onclose = vi.fn();
    const { dialog } = open(onclose);

    await fireEvent.mouseDown(screen.getByText("Delete the skill?"));
    await fireEvent.click(dialog);

    expect(onclose).not.toHaveBeenCalled();
  });

  it("opens again when the browser closes it while it must be answered", () => {
    const { dialog } = open();

    dialog.close();

    expect(dialog.open).toBe(true);
  });

  it("gives the focus back to the element that had it when it is unmounted", () => {
    const opener = document.createElement("button");
    document.body.append(opener);
    opener.focus();
    const { unmount } = open(() => {});
    screen.getByRole("button", { name: "Delete" }).focus();

    unmount();

    expect(document.activeElement).toBe(opener);
    opener.remove();
  });
});
