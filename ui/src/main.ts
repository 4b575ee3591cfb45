import { mount } from "svelte";
import App from "./App.svelte";
import "./styles.css";
import { applySavedAppearance } from "$lib/appearance";

const target = document.getElementById("app");
if (!target) throw new Error("missing #app element");

void applySavedAppearance();

export default mount(App, { target });
