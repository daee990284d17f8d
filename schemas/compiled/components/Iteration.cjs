// Generated from schemas/components/Iteration.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Iteration.schema.json","title":"Iteration params","description":"Runs its children once per item of a list.","type":"object","properties":{"items_ref":{"type":"string","minLength":1,"description":"Reference to the list (cpn@var, sys.x or env.x)."},"variable":{"type":["object","array"]},"outputs":{"type":["object","array"],"description":"{name: {ref: \"<child id>@<var>\", type}}: child outputs collected into lists."}},"required":["items_ref"]};
const func1 = require("ajv/dist/runtime/ucs2length").default;

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Iteration.schema.json" */;
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
if(data.items_ref === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "items_ref"},message:"must have required property '"+"items_ref"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.items_ref !== undefined){
let data0 = data.items_ref;
if(typeof data0 === "string"){
if(func1(data0) < 1){
const err1 = {instancePath:instancePath+"/items_ref",schemaPath:"#/properties/items_ref/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema31.properties.items_ref,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
else {
const err2 = {instancePath:instancePath+"/items_ref",schemaPath:"#/properties/items_ref/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.items_ref.type,parentSchema:schema31.properties.items_ref,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.variable !== undefined){
let data1 = data.variable;
if(!data1 || typeof data1 != "object"){
const err3 = {instancePath:instancePath+"/variable",schemaPath:"#/properties/variable/type",keyword:"type",params:{type: schema31.properties.variable.type},message:"must be object,array",schema:schema31.properties.variable.type,parentSchema:schema31.properties.variable,data:data1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.outputs !== undefined){
let data2 = data.outputs;
if(!data2 || typeof data2 != "object"){
const err4 = {instancePath:instancePath+"/outputs",schemaPath:"#/properties/outputs/type",keyword:"type",params:{type: schema31.properties.outputs.type},message:"must be object,array",schema:schema31.properties.outputs.type,parentSchema:schema31.properties.outputs,data:data2};
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
validate20.evaluated = {"props":{"items_ref":true,"variable":true,"outputs":true},"dynamicProps":false,"dynamicItems":false};

