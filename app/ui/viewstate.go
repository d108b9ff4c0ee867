package ui

// stateDraft is the view state other components set for the composer
// (Draft). The view states the component packages share are app/ui/uikit's.
const stateDraft = "tinyrag/draft"
