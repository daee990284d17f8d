// Generated from schemas/components/Unsupported.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Unsupported.schema.json","title":"Unsupported params","description":"A component `canvasflow migrate` could not convert, kept with its original type and params so nothing is lost. It never validates: replace it before running the canvas.","type":"object","properties":{"component_name":{"type":"string","description":"The original component_name (e.g. \"Jin10\")."},"params":{"type":"object","description":"The original params, exactly as they were."},"reason":{"type":"string","description":"Why the component could not be converted, and what to use instead."}},"required":["component_name","params"]};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Unsupported.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.component_name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "component_name"},message:"must have required property '"+"component_name"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.params === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "params"},message:"must have required property '"+"params"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.component_name !== undefined){
let data0 = data.component_name;
if(typeof data0 !== "string"){
const err2 = {instancePath:instancePath+"/component_name",schemaPath:"#/properties/component_name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.component_name.type,parentSchema:schema31.properties.component_name,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.params !== undefined){
let data1 = data.params;
if(!(data1 && typeof data1 == "object" && !Array.isArray(data1))){
const err3 = {instancePath:instancePath+"/params",schemaPath:"#/properties/params/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.params.type,parentSchema:schema31.properties.params,data:data1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.reason !== undefined){
let data2 = data.reason;
if(typeof data2 !== "string"){
const err4 = {instancePath:instancePath+"/reason",schemaPath:"#/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.reason.type,parentSchema:schema31.properties.reason,data:data2};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"component_name":true,"params":true,"reason":true},"dynamicProps":false,"dynamicItems":false};

